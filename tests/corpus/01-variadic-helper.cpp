#include "check.h"
#include <cstdarg>
static double sumArgs(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}
double f(double x) { return sumArgs(2, x, x * x); }
int main() {
  CHECK_SCALAR(f, 0.7);
  return failures;
}
