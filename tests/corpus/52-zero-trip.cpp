#include "check.h"
static double g(double x, int n) {
  double s = x;
  for (int i = 0; i < n; ++i)
    s = s * s + 0.1;
  return s;
}
int main() {
  expectClose(slope::grad<g>(0.4, 0), 1.0, "zero trips");
  expectClose(slope::derivative<g>(slope::dual(0.4, 1.0), 0), 1.0,
              "zero trips fwd");
  expectClose(slope::grad<g>(0.4, 2),
              central([](double v) { return g(v, 2); }, 0.4), "two trips");
  return failures;
}
