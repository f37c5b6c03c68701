// Forward mode keeps the primal's control flow, so loops already work:
// counted loops, data-dependent exits, nested loops.
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

double power(double x, int n) {
  double r = 1;
  for (int i = 0; i < n; ++i)
    r *= x;
  return r;
}

// Newton's iteration for sqrt(a), until converged.
double newtonSqrt(double a) {
  double x = a > 1 ? a : 1.0;
  for (int i = 0; i < 100; ++i) {
    double next = 0.5 * (x + a / x);
    if (std::fabs(next - x) <= 1e-15 * next)
      return next;
    x = next;
  }
  return x;
}

double nested(double x, double y, int n) {
  double s = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 0; j < i; ++j)
      s += std::sin(x * i + y * j) / (j + 1);
  return s;
}

TEST(ForwardLoops, CountedLoop) {
  for (int N : {0, 1, 5}) {
    double X = 1.3;
    double Expected = N == 0 ? 0.0 : N * std::pow(X, N - 1);
    EXPECT_TRUE(check::near(slope::derivative<power>(slope::dual(X, 1.0), N),
                            Expected, 1e-12))
        << "n = " << N;
  }
}

TEST(ForwardLoops, IterateUntilConverged) {
  for (double A : {0.25, 2.0, 10.0}) {
    double Tangent = slope::derivative<newtonSqrt>(slope::dual(A, 1.0));
    EXPECT_TRUE(check::near(Tangent, 0.5 / std::sqrt(A), 1e-9)) << "a = " << A;
  }
}

TEST(ForwardLoops, TriangularNest) {
  double X = 0.4, Y = -0.3;
  int N = 4;
  double DX = slope::derivative<nested>(slope::dual(X, 1.0), Y, N);
  double DY = slope::derivative<nested>(X, slope::dual(Y, 1.0), N);
  EXPECT_TRUE(check::near(
      DX,
      check::centralDifference<0>(
          [&](double x, double y) { return nested(x, y, N); }, X, Y),
      1e-7));
  EXPECT_TRUE(check::near(
      DY,
      check::centralDifference<1>(
          [&](double x, double y) { return nested(x, y, N); }, X, Y),
      1e-7));
}

} // namespace
