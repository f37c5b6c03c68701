// An optimizer over std::vector: the Rosenbrock function of a vector,
// minimized with gradient descent and momentum. slope::dup(x, dx) passes a
// vector with a shadow vector of the same size (a different size stops
// the program with a message).
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

double rosenbrock(const std::vector<double> &x) {
  double sum = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    double a = 1 - x[i], b = x[i + 1] - x[i] * x[i];
    sum += a * a + 100 * b * b;
  }
  return sum;
}

int main() {
  std::vector<double> x(4, -0.5), velocity(4, 0.0);
  double start = rosenbrock(x);
  for (int step = 0; step < 20000; ++step) {
    std::vector<double> g(x.size(), 0.0);
    slope::grad<rosenbrock>(slope::dup(x, g));
    for (std::size_t i = 0; i < x.size(); ++i) {
      velocity[i] = 0.9 * velocity[i] - 2e-4 * g[i];
      x[i] += velocity[i];
    }
  }
  double end = rosenbrock(x);
  std::printf("f %.4g -> %.3g at (%.4f, %.4f, %.4f, %.4f)\n", start, end, x[0],
              x[1], x[2], x[3]);
  return end < 1e-6 ? 0 : 1;
}
