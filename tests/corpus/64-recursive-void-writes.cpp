#include "check.h"
static void smooth(double *v, int n) {
  if (n < 2)
    return;
  v[1] = 0.5 * (v[0] + v[1]);
  smooth(v + 1, n - 1);
  v[0] *= v[1];
}
double f(double x) {
  double v[5] = {x, 2 * x, std::sin(x), 1, x * x};
  smooth(v, 5);
  return v[0] + v[2] + v[4];
}
int main() {
  CHECK_SCALAR(f, 0.8);
  return failures;
}
