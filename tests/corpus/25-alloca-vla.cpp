#include "check.h"
double g(double x, int n) {
  double buf[n];
  for (int i = 0; i < n; ++i)
    buf[i] = x * i;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * buf[i];
  return s;
}
double f(double x) { return g(x, 5); }
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
