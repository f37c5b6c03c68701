// Calls that cannot be inlined (direct, mutual and tree recursion) go
// through the callees' own derivatives: forward derivatives in forward
// mode, recomputing combined gradients in reverse mode.
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

double power(double x, int n) { return n == 0 ? 1 : x * power(x, n - 1); }

double odd(double x, int n);
double even(double x, int n) { return n <= 0 ? x : odd(std::sin(x), n - 1); }
double odd(double x, int n) { return even(x * 1.1, n - 1); }

double tree(double x, int depth) {
  if (depth == 0)
    return std::sin(x);
  return tree(x * 0.9, depth - 1) * tree(x + 0.1, depth - 1);
}

// Recursion with a constant second argument in the recursive call.
double damped(double x, double k, int n) {
  return n == 0 ? x : damped(x * k, 0.5, n - 1) + k;
}

void scaleAll(double *y, int n, double s) {
  if (n == 0)
    return;
  y[0] *= s;
  scaleAll(y + 1, n - 1, s);
}

double scaledNorm(double *y, int n) {
  scaleAll(y, n, 2.0);
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += y[i] * y[i];
  return t;
}

template <auto F, class... Rest> void checkFirst(double X, Rest... rest) {
  auto G = [&](double x) { return F(x, rest...); };
  long double Ref = check::centralDifference<0>(G, X);
  EXPECT_TRUE(check::near(slope::grad<F>(X, rest...), Ref, 1e-7)) << "reverse";
  EXPECT_TRUE(check::near(slope::derivative<F>(slope::dual(X, 1.0), rest...),
                          Ref, 1e-7))
      << "forward";
}

TEST(Recursion, Direct) {
  for (int N : {0, 1, 5})
    checkFirst<power>(1.3, N);
}

TEST(Recursion, Mutual) { checkFirst<even>(0.5, 6); }

TEST(Recursion, Tree) { checkFirst<tree>(0.5, 4); }

TEST(Recursion, ArgumentsChangeActivityAlongTheWay) {
  auto [GX, GK] = slope::grad<damped>(0.7, 0.9, 4);
  // damped = x·k·0.5³ + k + 3·0.5 → ∂x = k/8, ∂k = x/8 + 1.
  EXPECT_DOUBLE_EQ(GX, 0.9 / 8);
  EXPECT_DOUBLE_EQ(GK, 0.7 / 8 + 1);
}

TEST(Recursion, ForwardModeThroughPointers) {
  double Y[3] = {1, 2, 3}, T[3] = {1, 0, 0};
  // Σ (2y)² → directional derivative 8·y₀.
  EXPECT_DOUBLE_EQ(slope::derivative<scaledNorm>(slope::dup(Y, T), 3), 8.0);
  EXPECT_DOUBLE_EQ(Y[0], 2.0);
}

} // namespace
