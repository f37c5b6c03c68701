// A custom derivative: log(1 + eˣ) computed stably, with its derivative
// (the logistic function) given by hand instead of differentiated.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>

double softplus(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

static double logistic(double x) { return 1 / (1 + std::exp(-x)); }

slope::Dual<double> softplus_forward(double x, double dx) {
  return {softplus(x), logistic(x) * dx};
}
double softplus_pullback(double x, double dy) { return logistic(x) * dy; }

SLOPE_CUSTOM_DERIVATIVE(softplus, softplus_forward, softplus_pullback);

// The rule is used wherever softplus is called in differentiated code.
double loss(double w, double x) { return softplus(w * x) - 0.5 * w; }

int main() {
  auto [dw, dx] = slope::grad<loss>(2.0, 0.75);
  std::printf("d loss/dw = %.12f (expected %.12f)\n", dw,
              0.75 * logistic(1.5) - 0.5);
  std::printf("d loss/dx = %.12f (expected %.12f)\n", dx, 2 * logistic(1.5));
  return std::fabs(dw - (0.75 * logistic(1.5) - 0.5)) < 1e-14 ? 0 : 1;
}
