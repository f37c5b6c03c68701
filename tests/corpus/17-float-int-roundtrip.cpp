#include "check.h"
double f(double x) {
  int k = static_cast<int>(x * 10);
  return x * k + static_cast<double>(k);
}
int main() {
  CHECK_SCALAR(f, 0.53);
  return failures;
}
