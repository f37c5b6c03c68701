#include "check.h"
double f(double x) {
  static double (*const table[])(double) = {std::sin, std::cos};
  volatile int k = 1;
  return table[k](x);
}
int main() {
  CHECK_SCALAR(f, 0.8);
  return failures;
}
