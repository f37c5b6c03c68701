// Calls that cannot be inlined (direct, mutual and tree recursion) go
// through the callees' own derivatives: forward derivatives in forward
// mode, recomputing combined gradients in reverse mode.
#include "Expect.h"

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

// Recursive functions returning structs: by value in registers ({double,
// double}; two floats travel as <2 x float>), mixed with integers, and
// through an sret pointer (four doubles).
struct Pair {
  double A, B;
};
Pair rotate(double X, int N) {
  if (N == 0)
    return {std::cos(X), std::sin(X)};
  Pair R = rotate(X * 0.5, N - 1);
  return {R.A * R.A - R.B * R.B, 2 * R.A * R.B};
}
double usePair(double X, int N) {
  Pair R = rotate(X, N);
  return R.A + 3 * R.B;
}

// One recursive call's result is the other's argument, with no variable in
// between (an -O0 build calls them directly): the outer call's argument is
// active only through the inner call.
double nested(double x, int n) { return damped(0.3, damped(x, 0.2, n), n); }

// The base case selects its argument, so the argument's adjoint there is
// the seed where the select took it: none of that may be computed in the
// primal sweep, which has no seed when the recursion is split in two.
double clipped(double x, double unused, int n) {
  if (n == 0)
    return x > 0.1 ? x : 0.05;
  return clipped(std::sin(x), unused, n - 1);
}
double useClipped(double x, double y) { return clipped(x, y, 3) * y; }

struct FloatPair {
  float A, B;
};
FloatPair rotateFloat(float X, int N) {
  if (N == 0)
    return {std::cos(X), std::sin(X)};
  FloatPair R = rotateFloat(X * 0.5f, N - 1);
  return {R.A * R.A - R.B * R.B, 2 * R.A * R.B};
}
float useFloatPair(float X, int N) {
  FloatPair R = rotateFloat(X, N);
  return R.A + 3 * R.B;
}

struct Tagged {
  double Value;
  int Steps;
};
Tagged countDown(double X, int N) {
  if (N == 0)
    return {X, 0};
  Tagged T = countDown(std::sqrt(X + 1), N - 1);
  return {T.Value * X, T.Steps + 1};
}
double useTagged(double X, int N) {
  Tagged T = countDown(X, N);
  return T.Value * T.Steps;
}

struct Quad {
  double A, B, C, D;
};
Quad spread(double X, int N) {
  if (N == 0)
    return {X, X * X, std::sin(X), 1};
  Quad R = spread(X * 0.9, N - 1);
  return {R.A + R.B, R.B * R.C, R.C + X, R.D * X};
}
double useQuad(double X, int N) {
  Quad R = spread(X, N);
  return R.A + R.B + R.C + R.D;
}

TEST(Recursion, Direct) {
  for (int N : {0, 1, 5})
    check::expectFirstArgFD<power>(1.3, N);
}

TEST(Recursion, Mutual) { check::expectFirstArgFD<even>(0.5, 6); }

TEST(Recursion, Tree) { check::expectFirstArgFD<tree>(0.5, 4); }

TEST(Recursion, ArgumentsChangeActivityAlongTheWay) {
  auto [GX, GK] = slope::grad<damped>(0.7, 0.9, 4);
  // damped = x·k·0.5³ + k + 3·0.5 → ∂x = k/8, ∂k = x/8 + 1.
  EXPECT_DOUBLE_EQ(GX, 0.9 / 8);
  EXPECT_DOUBLE_EQ(GK, 0.7 / 8 + 1);
}

TEST(Recursion, OneCallsResultIsTheNextCallsArgument) {
  for (int N : {0, 1, 3})
    check::expectFirstArgFD<nested>(0.7, N);
}

TEST(Recursion, SelectOnTheWayBackInTheBaseCase) {
  for (double X : {0.3, 0.05}) {
    double Y = 0.7;
    auto F = [](double A, double B) { return useClipped(A, B); };
    long double RefX = check::centralDifference<0>(F, X, Y);
    long double RefY = check::centralDifference<1>(F, X, Y);
    auto [GX, GY] = slope::grad<useClipped>(X, Y);
    EXPECT_TRUE(check::near(GX, RefX, 1e-7, 1e-12)) << "reverse at " << X;
    EXPECT_TRUE(check::near(GY, RefY, 1e-7)) << "reverse at " << X;
    double TX = slope::derivative<useClipped>(slope::dual(X, 1.0), Y);
    EXPECT_TRUE(check::near(TX, RefX, 1e-7, 1e-12)) << "forward at " << X;
  }
}

TEST(Recursion, ForwardModeThroughPointers) {
  double Y[3] = {1, 2, 3}, T[3] = {1, 0, 0};
  // Σ (2y)² → directional derivative 8·y₀.
  EXPECT_DOUBLE_EQ(slope::derivative<scaledNorm>(slope::dup(Y, T), 3), 8.0);
  EXPECT_DOUBLE_EQ(Y[0], 2.0);
}

TEST(Recursion, StructResults) {
  check::expectFirstArgFD<usePair>(0.7, 3);
  check::expectFirstArgFD<useTagged>(0.7, 4);
  check::expectFirstArgFD<useQuad>(0.7, 3);
}

TEST(Recursion, FloatPairResult) {
  // Reference in double: the float function's derivative, evaluated in
  // float, agrees to float precision.
  auto F = [](double X) {
    Pair R = rotate(X, 3);
    return R.A + 3 * R.B;
  };
  long double Ref = check::centralDifference<0>(F, 0.7);
  EXPECT_TRUE(check::near(slope::grad<useFloatPair>(0.7f, 3), Ref, 1e-5));
  EXPECT_TRUE(check::near(
      slope::derivative<useFloatPair>(slope::dual(0.7f, 1.0f), 3), Ref, 1e-5));
}

} // namespace
