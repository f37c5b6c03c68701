#include "check.h"
static double weighted(const float *w, double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * std::sin(x * i);
  return s;
}
int main() {
  float w[4] = {1, 2, 3, 4}, dw[4] = {};
  double dx = slope::grad<weighted>(slope::dup(w, dw), 0.3, 4);
  for (int i = 0; i < 4; ++i)
    expectClose(dw[i], std::sin(0.3 * i), "dw");
  double ref = 0;
  for (int i = 0; i < 4; ++i)
    ref += w[i] * i * std::cos(0.3 * i);
  expectClose(dx, ref, "dx");
  return failures;
}
