// Targets defined in another file (Library.cpp): with -flto the compile
// step leaves these requests to the link, where the pass (loaded into
// lld) differentiates them. Both modes against analytic derivatives.
#include "Library.h"

#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>

static bool near(double a, double b) {
  return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b));
}

int main() {
  double x[3] = {0.1, 0.5, 0.9}, dx[3] = {};
  slope::grad<energy>(slope::dup(x, dx), 3);
  bool ok = true;
  for (int i = 0; i < 3; ++i) {
    double want = 2 * x[i] * std::sin(x[i]) + x[i] * x[i] * std::cos(x[i]);
    ok &= near(dx[i], want);
  }
  double tx[3] = {0, 1, 0};
  ok &= near(slope::derivative<energy>(slope::dup(x, tx), 3), dx[1]);
  Spring spring{3.0}, dspring{0.0};
  double ds = slope::grad<&Spring::potential>(slope::dup(spring, dspring), 0.4);
  ok &= near(ds, 3.0 * 0.4 - std::sin(0.4));
  ok &= near(dspring.stiffness, 0.5 * 0.4 * 0.4);
  std::printf("%s: dx = (%g, %g, %g), d/ds = %g\n", ok ? "ok" : "WRONG", dx[0],
              dx[1], dx[2], ds);
  return ok ? 0 : 1;
}
