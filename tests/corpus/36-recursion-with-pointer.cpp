#include "check.h"
static double sumTo(const double *x, int n) {
  return n == 0 ? 0 : x[n - 1] * x[n - 1] + sumTo(x, n - 1);
}
double f(double v) {
  double x[3] = {v, 2 * v, 3 * v};
  return sumTo(x, 3);
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
