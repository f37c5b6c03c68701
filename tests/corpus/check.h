// Shared by the corpus programs: each main() returns 0 when the gradients
// it computes with Slope match central differences.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>

static int failures = 0;

template <class F> double central(F f, double x) {
  double h = 1e-6 * (std::fabs(x) > 1 ? std::fabs(x) : 1);
  return (f(x + h) - f(x - h)) / (2 * h);
}

static void expectClose(double ad, double ref, const char *what) {
  if (std::fabs(ad - ref) > 1e-5 * (1 + std::fabs(ref))) {
    std::printf("%s: AD %.12g vs reference %.12g\n", what, ad, ref);
    ++failures;
  }
}

/// Reverse and forward derivative of a scalar function F at x.
#define CHECK_SCALAR(F, x)                                                     \
  do {                                                                         \
    double ref = central([](double v) { return F(v); }, x);                    \
    expectClose(slope::grad<F>(x), ref, #F " reverse");                        \
    expectClose(slope::derivative<F>(slope::dual(x, 1.0)), ref,                \
                #F " forward");                                                \
  } while (0)
