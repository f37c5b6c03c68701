// Built by samples/consumer/CMakeLists.txt through find_package(Slope):
// the gradient of a Rosenbrock function, checked against its formula.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>

double rosenbrock(double x, double y) {
  return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x);
}

int main() {
  double x = 0.5, y = 0.8;
  auto [dx, dy] = slope::grad<rosenbrock>(x, y);
  double ex = -2 * (1 - x) - 400 * x * (y - x * x), ey = 200 * (y - x * x);
  std::printf("grad rosenbrock(%g, %g) = (%g, %g)\n", x, y, dx, dy);
  bool ok = std::fabs(dx - ex) < 1e-12 && std::fabs(dy - ey) < 1e-12;
  std::printf(ok ? "matches the formula\n" : "WRONG: expected (%g, %g)\n", ex,
              ey);
  return ok ? 0 : 1;
}
