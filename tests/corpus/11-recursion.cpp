#include "check.h"
double power(double x, int n) { return n == 0 ? 1 : x * power(x, n - 1); }
double f(double x) { return power(x, 4); }
int main() {
  CHECK_SCALAR(f, 1.1);
  return failures;
}
