#include "check.h"
double last;
double f(double x) {
  last = x;
  return x * x;
}
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
