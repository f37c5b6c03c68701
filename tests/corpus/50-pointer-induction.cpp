#include "check.h"
static double sumSquares(const double *begin, const double *end) {
  double s = 0;
  for (const double *p = begin; p != end; ++p)
    s += *p * *p;
  return s;
}
double f(double x) {
  double a[5] = {x, 2 * x, 3 * x, x * x, 1};
  return sumSquares(a, a + 5);
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
