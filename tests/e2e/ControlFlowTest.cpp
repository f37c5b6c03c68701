// Branches, early returns, selects, phis, comparisons, integer and constant
// arguments, float/double casts, and the API's return conventions.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <cmath>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

double piecewise(double x, double y) {
  double r;
  if (x > y)
    r = x * x * y;
  else if (x < -1.0)
    r = std::sin(x) + y;
  else
    r = x / (y * y + 1.0);
  return r * 2.0;
}

double earlyReturn(double x, double y) {
  if (x < 0)
    return -x * y;
  double s = std::sqrt(x);
  if (s > y)
    return s * y;
  return std::exp(-x) + y * y;
}

double clampLike(double x, double lo, double hi) {
  double v = x < lo ? lo : x;
  return (v > hi ? hi : v) * x;
}

double polynomial(double x, int degree, bool negate) {
  double result = 0, power = 1;
  switch (degree) {
  case 3:
    result += 0.5 * x * x * x;
    [[fallthrough]];
  case 2:
    result += 1.5 * x * x;
    [[fallthrough]];
  default:
    result += x + power;
  }
  return negate ? -result : result;
}

float mixedPrecision(float x, double y) {
  double wide = static_cast<double>(x) * y + std::log(y);
  return static_cast<float>(wide) * x;
}

// Irreducible control flow: a jump into the middle of a loop, and Duff's
// device (a switch into a do-while).
double jumpIntoLoop(double x, int n, int start) {
  double s = x;
  int i = 0;
  if (start > 0)
    goto middle;
  for (; i < n; ++i) {
    s = std::sin(s) + x;
  middle:
    s = s * 0.9 + 0.1 * x * x;
  }
  return s;
}

// A loop entered in the middle whose other half carries an accumulator
// through a branch: after the loop is made reducible, the guard's phis
// take other phis of the guard as incoming values (fuzz seed 1278 at -O0).
double jumpOverTheAccumulator(double *x, int n, double s) {
  double acc = 0.5 * s;
  int k = n - 1;
  if (n > 1)
    goto second;
first:
  acc = 0.7 * acc + 0.3 * (x[k] > 0 ? std::exp(x[k]) : std::log1p(x[k]));
second:
  x[k] = 0.5 * x[k] + 0.1 * s;
  if (--k >= 0)
    goto first;
  return acc;
}

// Values that trade places each iteration: a header phi's incoming value
// is the other phi, in either order of declaration.
double rotateAB(double a, double b, int n) {
  for (int i = 0; i < n; ++i) {
    double t = a;
    a = 0.9 * b + 0.2 * std::sin(t);
    b = t;
  }
  return a + 2 * b;
}

double rotateBA(double a, double b, int n) {
  for (int i = 0; i < n; ++i) {
    double t = b;
    b = 0.9 * a + 0.2 * std::sin(t);
    a = t;
  }
  return a + 2 * b;
}

double duffsDevice(const double *x, int n) {
  double s = 0;
  int i = 0, rounds = (n + 3) / 4;
  switch (n % 4) {
  case 0:
    do {
      s += std::sin(x[i++]);
    case 3:
      s += std::sin(x[i++]) * s;
    case 2:
      s += std::sin(x[i++]);
    case 1:
      s += std::sin(x[i++]) * 0.5;
    } while (--rounds > 0);
  }
  return s;
}

double threeArgs(double a, double b, double c) { return a * b + std::cos(c); }

void expectBothModes(double Expected, double Reverse, double Forward) {
  EXPECT_TRUE(check::near(Reverse, Expected, 1e-7)) << "reverse";
  EXPECT_TRUE(check::near(Forward, Expected, 1e-7)) << "forward";
}

template <auto F> void checkTwoArgs(double X, double Y) {
  auto [GX, GY] = slope::grad<F>(X, Y);
  expectBothModes(check::centralDifference<0>(F, X, Y), GX,
                  slope::derivative<F>(slope::dual(X, 1.0), Y));
  expectBothModes(check::centralDifference<1>(F, X, Y), GY,
                  slope::derivative<F>(X, slope::dual(Y, 1.0)));
}

TEST(ControlFlow, IfElseChains) {
  checkTwoArgs<piecewise>(1.5, 0.5);  // first branch
  checkTwoArgs<piecewise>(-2.0, 0.5); // second branch
  checkTwoArgs<piecewise>(0.2, 0.9);  // third branch
}

TEST(ControlFlow, JumpIntoALoop) {
  for (int Start : {0, 1})
    for (int N : {0, 1, 5}) {
      auto F = [&](double x) { return jumpIntoLoop(x, N, Start); };
      long double Reference = check::centralDifference<0>(F, 0.7);
      EXPECT_TRUE(check::near(slope::grad<jumpIntoLoop>(0.7, N, Start),
                              Reference, 1e-7))
          << "reverse, start " << Start << ", n " << N;
      EXPECT_TRUE(check::near(
          slope::derivative<jumpIntoLoop>(slope::dual(0.7, 1.0), N, Start),
          Reference, 1e-7))
          << "forward, start " << Start << ", n " << N;
    }
}

TEST(ControlFlow, JumpOverAnAccumulator) {
  for (int N : {1, 2, 3, 6}) {
    std::vector<double> X = check::wave(N, 0.8), DX(N);
    EXPECT_TRUE(slope::testing::check_gradient<jumpOverTheAccumulator>(
        slope::dup(X.data(), DX.data(), N), N, 0.7))
        << "n " << N;
  }
}

TEST(ControlFlow, ValuesThatTradePlaces) {
  for (int N : {0, 1, 2, 5}) {
    EXPECT_TRUE(slope::testing::check_gradient<rotateAB>(0.3, -0.6, N))
        << "n " << N;
    EXPECT_TRUE(slope::testing::check_gradient<rotateBA>(0.3, -0.6, N))
        << "n " << N;
  }
}

TEST(ControlFlow, DuffsDevice) {
  for (int N : {1, 4, 7}) {
    std::vector<double> X = check::wave(N, 0.8), DX(N);
    std::vector<double> Reference =
        check::arrayDifferences(duffsDevice, X.data(), N, N);
    slope::grad<duffsDevice>(slope::dup(X.data(), DX.data()), N);
    for (int I = 0; I < N; ++I) {
      EXPECT_TRUE(check::near(DX[I], Reference[I], 1e-6, 1e-9))
          << "reverse, n " << N << ", x[" << I << "]";
      std::vector<double> T(N);
      T[I] = 1;
      EXPECT_TRUE(check::near(
          slope::derivative<duffsDevice>(slope::dup(X.data(), T.data()), N),
          Reference[I], 1e-6, 1e-9))
          << "forward, n " << N << ", x[" << I << "]";
    }
  }
}

TEST(ControlFlow, EarlyReturns) {
  checkTwoArgs<earlyReturn>(-1.5, 0.5);
  checkTwoArgs<earlyReturn>(4.0, 1.5);
  checkTwoArgs<earlyReturn>(0.25, 2.0);
}

TEST(ControlFlow, SelectsAndConstants) {
  // x below, inside and above [lo, hi]; lo and hi are constants.
  for (double X : {-3.0, 0.5, 4.0}) {
    double Expected = check::centralDifference<0>(
        [](double x) { return clampLike(x, -1.0, 2.0); }, X);
    double Reverse =
        slope::grad<clampLike>(X, slope::constant(-1.0), slope::constant(2.0));
    double Forward =
        slope::derivative<clampLike>(slope::dual(X, 1.0), -1.0, 2.0);
    expectBothModes(Expected, Reverse, Forward);
  }
  // The bounds active: adjoints flow to whichever value was selected.
  auto [GX, GLo, GHi] = slope::grad<clampLike>(-3.0, -1.0, 2.0);
  EXPECT_DOUBLE_EQ(GX, -1.0);
  EXPECT_DOUBLE_EQ(GLo, -3.0);
  EXPECT_DOUBLE_EQ(GHi, 0.0);
}

TEST(ControlFlow, IntegerAndBoolArgumentsAreInactive) {
  for (int Degree : {1, 2, 3})
    for (bool Negate : {false, true}) {
      double X = 0.7;
      double Expected = check::centralDifference<0>(
          [&](double x) { return polynomial(x, Degree, Negate); }, X);
      double Reverse = slope::grad<polynomial>(X, Degree, Negate);
      double Forward =
          slope::derivative<polynomial>(slope::dual(X, 1.0), Degree, Negate);
      expectBothModes(Expected, Reverse, Forward);
    }
}

TEST(ControlFlow, FloatDoubleCasts) {
  float X = 1.25f;
  double Y = 2.5;
  auto [GX, GY] = slope::grad<mixedPrecision>(X, Y);
  static_assert(std::is_same_v<decltype(GX), float>);
  static_assert(std::is_same_v<decltype(GY), double>);
  // d/dx (x*y + log y) * x = 2xy + log y;  d/dy = x*(x + 1/y)
  EXPECT_TRUE(check::near(GX, 2 * X * Y + std::log(Y), 1e-6));
  EXPECT_TRUE(check::near(GY, X * (X + 1 / Y), 1e-6));
  float FX = slope::derivative<mixedPrecision>(slope::dual(X, 1.0f), Y);
  EXPECT_TRUE(check::near(FX, 2 * X * Y + std::log(Y), 1e-6));
}

TEST(ApiConventions, ReturnShapes) {
  // One active scalar: the value itself.
  double Only =
      slope::grad<threeArgs>(slope::constant(2.0), 3.0, slope::constant(0.5));
  EXPECT_DOUBLE_EQ(Only, 2.0);
  // Several: a tuple in argument order.
  auto All = slope::grad<threeArgs>(2.0, 3.0, 0.5);
  static_assert(
      std::is_same_v<decltype(All), std::tuple<double, double, double>>);
  EXPECT_DOUBLE_EQ(std::get<0>(All), 3.0);
  EXPECT_DOUBLE_EQ(std::get<1>(All), 2.0);
  EXPECT_DOUBLE_EQ(std::get<2>(All), -std::sin(0.5));
  // None: void.
  static_assert(
      std::is_void_v<decltype(slope::grad<threeArgs>(
          slope::constant(1.0), slope::constant(1.0), slope::constant(1.0)))>);
  // value_and_grad: .value and .grad, structured bindings.
  auto [Value, Grad] = slope::value_and_grad<threeArgs>(
      2.0, slope::constant(3.0), slope::constant(0.5));
  EXPECT_DOUBLE_EQ(Value, threeArgs(2.0, 3.0, 0.5));
  EXPECT_DOUBLE_EQ(Grad, 3.0);
  auto Both = slope::value_and_grad<threeArgs>(2.0, 3.0, slope::constant(0.5));
  EXPECT_DOUBLE_EQ(std::get<1>(Both.grad), 2.0);
  // value_and_derivative: .value and .derivative.
  auto VD = slope::value_and_derivative<threeArgs>(2.0, slope::dual(3.0, 1.0),
                                                   slope::dual(0.5, 2.0));
  EXPECT_DOUBLE_EQ(VD.value, threeArgs(2.0, 3.0, 0.5));
  EXPECT_DOUBLE_EQ(VD.derivative, 2.0 - 2.0 * std::sin(0.5));
}

TEST(ApiConventions, ArgumentsConvertToParameterTypes) {
  // An int literal bound to a double parameter is still active.
  auto [GA, GB, GC] = slope::grad<threeArgs>(2, 3, 0);
  EXPECT_DOUBLE_EQ(GA, 3.0);
  EXPECT_DOUBLE_EQ(GB, 2.0);
  EXPECT_DOUBLE_EQ(GC, 0.0);
}

} // namespace
