#include "check.h"
double f(double x) {
  double s = 0;
  for (int n = 1; n < 4; ++n) {
    double buf[n];
    for (int i = 0; i < n; ++i)
      buf[i] = x * i;
    for (int i = 0; i < n; ++i)
      s += buf[i] * buf[i];
  }
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
