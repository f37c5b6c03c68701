#include "check.h"
double f(double x) {
  static int calls = 0;
  ++calls;
  return x * x * (calls > 0 ? 1.0 : 2.0);
}
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
