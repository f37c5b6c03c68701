// Every math function of the rule table, as libm calls (and as intrinsics
// when built with -fno-math-errno), in float and double, both modes,
// against central finite differences.
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

template <class T> using Unary = T (*)(T);
template <class T> using Binary = T (*)(T, T);

template <auto F, class T> void expectUnary(T X) {
  long double Reference = check::centralDifference<0>(F, X);
  T Reverse = slope::grad<F>(X);
  T Forward = slope::derivative<F>(slope::dual(X, T(1)));
  EXPECT_TRUE(check::near(Reverse, Reference, check::fdTolerance<T>(), 1e-9))
      << "reverse mode at " << X;
  EXPECT_TRUE(check::near(Forward, Reference, check::fdTolerance<T>(), 1e-9))
      << "forward mode at " << X;
}

template <auto F, class T> void expectBinary(T X, T Y) {
  long double RefX = check::centralDifference<0>(F, X, Y);
  long double RefY = check::centralDifference<1>(F, X, Y);
  auto [GX, GY] = slope::grad<F>(X, Y);
  T FX = slope::derivative<F>(slope::dual(X, T(1)), Y);
  T FY = slope::derivative<F>(X, slope::dual(Y, T(1)));
  T Tol = check::fdTolerance<T>();
  EXPECT_TRUE(check::near(GX, RefX, Tol, 1e-9)) << "reverse d/dx";
  EXPECT_TRUE(check::near(GY, RefY, Tol, 1e-9)) << "reverse d/dy";
  EXPECT_TRUE(check::near(FX, RefX, Tol, 1e-9)) << "forward d/dx";
  EXPECT_TRUE(check::near(FY, RefY, Tol, 1e-9)) << "forward d/dy";
}

// One function per rule, instantiated for float and double.
#define SLOPE_UNARY(Name, Expr)                                                \
  template <class T> T Name(T x) { return Expr; }
#define SLOPE_BINARY(Name, Expr)                                               \
  template <class T> T Name(T x, T y) { return Expr; }

SLOPE_UNARY(sqrtOf, std::sqrt(x))
SLOPE_UNARY(cbrtOf, std::cbrt(x))
SLOPE_UNARY(expOf, std::exp(x))
SLOPE_UNARY(exp2Of, std::exp2(x))
SLOPE_UNARY(expm1Of, std::expm1(x))
SLOPE_UNARY(logOf, std::log(x))
SLOPE_UNARY(log2Of, std::log2(x))
SLOPE_UNARY(log10Of, std::log10(x))
SLOPE_UNARY(log1pOf, std::log1p(x))
SLOPE_UNARY(sinOf, std::sin(x))
SLOPE_UNARY(cosOf, std::cos(x))
SLOPE_UNARY(tanOf, std::tan(x))
SLOPE_UNARY(asinOf, std::asin(x))
SLOPE_UNARY(acosOf, std::acos(x))
SLOPE_UNARY(atanOf, std::atan(x))
SLOPE_UNARY(sinhOf, std::sinh(x))
SLOPE_UNARY(coshOf, std::cosh(x))
SLOPE_UNARY(tanhOf, std::tanh(x))
SLOPE_UNARY(asinhOf, std::asinh(x))
SLOPE_UNARY(acoshOf, std::acosh(x))
SLOPE_UNARY(atanhOf, std::atanh(x))
SLOPE_UNARY(exp10Of, exp10(x))
// ldexp and scalbn scale by 2ⁿ (n an int); logb is locally constant.
SLOPE_UNARY(ldexpOf, std::ldexp(x, 3) + std::scalbn(x * x, -2))
SLOPE_UNARY(logbOf, std::logb(x) * x)
SLOPE_UNARY(erfOf, std::erf(x))
SLOPE_UNARY(erfcOf, std::erfc(x))
SLOPE_UNARY(fabsOf, std::fabs(x))
SLOPE_UNARY(powiOf, __builtin_powi(x, 3) + __builtin_powi(x, -2))
// Rounding is locally constant; multiply by x so the result still varies.
SLOPE_UNARY(floorOf, std::floor(x) * x)
SLOPE_UNARY(ceilOf, std::ceil(x) * x)
SLOPE_UNARY(truncOf, std::trunc(x) * x)
SLOPE_UNARY(roundOf, std::round(x) * x)
SLOPE_BINARY(powOf, std::pow(x, y))
SLOPE_BINARY(atan2Of, std::atan2(x, y))
SLOPE_BINARY(hypotOf, std::hypot(x, y))
SLOPE_BINARY(fminOf, std::fmin(x, y) * (x + 2 * y))
SLOPE_BINARY(fmaxOf, std::fmax(x, y) * (x + 2 * y))
SLOPE_BINARY(copysignOf, std::copysign(x *y, y - 1))
SLOPE_BINARY(fdimOf, std::fdim(x, y) * (x + 2 * y))
SLOPE_BINARY(fmaOf, std::fma(x, y, x / y))
SLOPE_BINARY(fmuladdOf, x *y + y)

template <class T> class MathFunctions : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MathFunctions, FloatTypes);

TYPED_TEST(MathFunctions, PowersAndRoots) {
  using T = TypeParam;
  expectUnary<sqrtOf<T>>(T(2.5));
  expectUnary<cbrtOf<T>>(T(-3.5));
  expectUnary<powiOf<T>>(T(1.25));
  expectBinary<powOf<T>>(T(1.7), T(2.3));
  expectBinary<hypotOf<T>>(T(3.0), T(-4.5));
}

TYPED_TEST(MathFunctions, ExponentialsAndLogarithms) {
  using T = TypeParam;
  expectUnary<expOf<T>>(T(0.7));
  expectUnary<exp2Of<T>>(T(-1.3));
  expectUnary<expm1Of<T>>(T(0.01));
  expectUnary<logOf<T>>(T(3.2));
  expectUnary<log2Of<T>>(T(0.4));
  expectUnary<log10Of<T>>(T(12.0));
  expectUnary<log1pOf<T>>(T(0.3));
  expectUnary<exp10Of<T>>(T(0.45));
  expectUnary<ldexpOf<T>>(T(-0.7));
  expectUnary<logbOf<T>>(T(5.5));
}

TYPED_TEST(MathFunctions, Trigonometric) {
  using T = TypeParam;
  expectUnary<sinOf<T>>(T(0.9));
  expectUnary<cosOf<T>>(T(-2.1));
  expectUnary<tanOf<T>>(T(0.6));
  expectUnary<asinOf<T>>(T(0.35));
  expectUnary<acosOf<T>>(T(-0.55));
  expectUnary<atanOf<T>>(T(1.8));
  expectBinary<atan2Of<T>>(T(-0.8), T(1.9));
}

TYPED_TEST(MathFunctions, Hyperbolic) {
  using T = TypeParam;
  expectUnary<sinhOf<T>>(T(0.8));
  expectUnary<coshOf<T>>(T(-1.2));
  expectUnary<tanhOf<T>>(T(0.45));
  expectUnary<asinhOf<T>>(T(-1.4));
  expectUnary<acoshOf<T>>(T(1.6));
  expectUnary<atanhOf<T>>(T(0.55));
  expectUnary<erfOf<T>>(T(0.3));
  expectUnary<erfcOf<T>>(T(-0.6));
}

TYPED_TEST(MathFunctions, SignMagnitudeAndSelection) {
  using T = TypeParam;
  expectUnary<fabsOf<T>>(T(-1.5));
  expectUnary<fabsOf<T>>(T(2.5));
  expectBinary<fminOf<T>>(T(1.5), T(-0.5));
  expectBinary<fminOf<T>>(T(-1.5), T(0.5));
  expectBinary<fmaxOf<T>>(T(1.5), T(-0.5));
  expectBinary<fmaxOf<T>>(T(-1.5), T(0.5));
  expectBinary<copysignOf<T>>(T(1.5), T(0.25));
  expectBinary<copysignOf<T>>(T(1.5), T(2.0));
  expectBinary<fdimOf<T>>(T(1.5), T(-0.5));
  expectBinary<fdimOf<T>>(T(-1.5), T(0.5));
  expectBinary<fmaOf<T>>(T(1.5), T(-2.5));
  expectBinary<fmuladdOf<T>>(T(0.75), T(3.0));
}

TYPED_TEST(MathFunctions, Rounding) {
  using T = TypeParam;
  expectUnary<floorOf<T>>(T(2.3));
  expectUnary<ceilOf<T>>(T(-2.3));
  expectUnary<truncOf<T>>(T(-3.7));
  expectUnary<roundOf<T>>(T(3.2));
}

// The derivative of a rule with a known closed form, checked exactly.
TEST(MathFunctionsAnalytic, ClosedForms) {
  double X = 0.3;
  EXPECT_DOUBLE_EQ(slope::grad<sinOf<double>>(X), std::cos(X));
  EXPECT_DOUBLE_EQ(slope::grad<expOf<double>>(X), std::exp(X));
  EXPECT_DOUBLE_EQ(slope::grad<logOf<double>>(X), 1 / X);
  EXPECT_DOUBLE_EQ(slope::derivative<sqrtOf<double>>(slope::dual(X, 1.0)),
                   0.5 / std::sqrt(X));
  EXPECT_DOUBLE_EQ(slope::derivative<tanhOf<double>>(slope::dual(X, 2.0)),
                   2 * (1 - std::tanh(X) * std::tanh(X)));
}

} // namespace
