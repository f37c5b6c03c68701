// A zero tangent or adjoint through a singular point stays zero (not NaN),
// while a nonzero one still gives the true infinite derivative.
#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

namespace {

double scaledSqrt(double x, double c) { return c * std::sqrt(x); }
double scaledLog(double x, double c) { return c * std::log(x); }
double scaledInverse(double x, double c) { return c * (1.0 / x); }
double scaledPow(double x, double y, double c) { return c * std::pow(x, y); }
double scaledAcosh(double x, double c) { return c * std::acosh(x); }
double scaledAtanh(double x, double c) { return c * std::atanh(x); }
// Positive divisors that can be tiny: a / b is finite, but the partial
// -(a / b) / b overflows, so the guard must stay.
double tinyDivisor(double x, double y, double c) {
  return c * (x / (y * y + DBL_MIN));
}
double tinyAbsDivisor(double x, double y, double c) {
  return c * (x / (std::fabs(y) + 1e-300));
}
float tinyFloatDivisor(float x, float y, float c) {
  return c * (x / (y * y + FLT_MIN));
}
double unusedSqrt(double x, double y) {
  double s = std::sqrt(x);
  return y > 0 ? s : y;
}

TEST(SingularPoints, ZeroAdjointStaysZero) {
  EXPECT_EQ(slope::grad<scaledSqrt>(0.0, slope::constant(0.0)), 0.0);
  EXPECT_EQ(slope::grad<scaledLog>(0.0, slope::constant(0.0)), 0.0);
  EXPECT_EQ(slope::grad<scaledInverse>(0.0, slope::constant(0.0)), 0.0);
  EXPECT_EQ(slope::grad<scaledAcosh>(1.0, slope::constant(0.0)), 0.0);
  EXPECT_EQ(slope::grad<scaledAtanh>(-1.0, slope::constant(0.0)), 0.0);
  auto [GX, GY] = slope::grad<scaledPow>(0.0, 0.5, slope::constant(0.0));
  EXPECT_EQ(GX, 0.0);
  EXPECT_EQ(GY, 0.0);
  auto [UX, UY] = slope::grad<unusedSqrt>(0.0, -1.0);
  EXPECT_EQ(UX, 0.0);
  EXPECT_EQ(UY, 1.0);
}

TEST(SingularPoints, TinyPositiveDivisorKeepsItsGuard) {
  auto [X, Y] = slope::grad<tinyDivisor>(1.0, 0.0, slope::constant(0.0));
  EXPECT_EQ(X, 0.0);
  EXPECT_EQ(Y, 0.0);
  auto [AX, AY] = slope::grad<tinyAbsDivisor>(1.0, 0.0, slope::constant(0.0));
  EXPECT_EQ(AX, 0.0);
  EXPECT_EQ(AY, 0.0);
  auto [FX, FY] =
      slope::grad<tinyFloatDivisor>(1.0f, 0.0f, slope::constant(0.0f));
  EXPECT_EQ(FX, 0.0f);
  EXPECT_EQ(FY, 0.0f);
  EXPECT_EQ(slope::derivative<tinyDivisor>(slope::dual(1.0, 0.0),
                                           slope::dual(0.0, 0.0), 1.0),
            0.0);
  EXPECT_EQ(slope::derivative<tinyFloatDivisor>(slope::dual(1.0f, 0.0f),
                                                slope::dual(0.0f, 0.0f), 1.0f),
            0.0f);
}

TEST(SingularPoints, ZeroTangentStaysZero) {
  EXPECT_EQ(slope::derivative<scaledSqrt>(slope::dual(0.0, 0.0), 1.0), 0.0);
  EXPECT_EQ(slope::derivative<scaledLog>(slope::dual(0.0, 0.0), 1.0), 0.0);
  EXPECT_EQ(slope::derivative<scaledInverse>(slope::dual(0.0, 0.0), 1.0), 0.0);
  EXPECT_EQ(slope::derivative<scaledAcosh>(slope::dual(1.0, 0.0), 1.0), 0.0);
  EXPECT_EQ(slope::derivative<scaledAtanh>(slope::dual(1.0, 0.0), 1.0), 0.0);
  // d/dy of pow(0, y) is 0 for y > 0, not 0 * log(0).
  EXPECT_EQ(slope::derivative<scaledPow>(0.0, slope::dual(2.0, 1.0), 1.0), 0.0);
}

TEST(SingularPoints, NonzeroSeedGivesTheTrueDerivative) {
  EXPECT_TRUE(std::isinf(slope::grad<scaledSqrt>(0.0, slope::constant(1.0))));
  EXPECT_TRUE(
      std::isinf(slope::derivative<scaledLog>(slope::dual(0.0, 1.0), 1.0)));
}

} // namespace

// hypot at the origin, reached by a value that a loop keeps at exactly
// zero: the function is locally constant in x, but hypot's partials there
// are 0/0, and NaN times the zero derivative behind them stays NaN. Slope
// takes the norm's subgradient 0 at the origin (found by the fuzz
// campaign, seed 624).
double stuckAtOrigin(const double *x, double acc, int n) {
  double row = 0;
  for (int p = 0; p < n; ++p)
    row += std::sin(
        std::atan2(std::hypot(row, std::fmin(acc, row)), 1.0 + x[p] * x[p]));
  return acc + 0.2 * row;
}

TEST(SingularPoints, HypotAtTheOriginGivesZero) {
  double x[2] = {0.3, 0.5}, dx[2] = {};
  double dacc = slope::grad<stuckAtOrigin>(slope::dup(x, dx), 0.4, 2);
  EXPECT_EQ(dx[0], 0.0);
  EXPECT_EQ(dx[1], 0.0);
  EXPECT_EQ(dacc, 1.0);
  double tx[2] = {1.0, 1.0};
  EXPECT_EQ(slope::derivative<stuckAtOrigin>(slope::dup(x, tx), 0.4, 2), 0.0);
  // Away from the origin hypot's partials are the usual ones.
  EXPECT_DOUBLE_EQ(slope::grad<stuckAtOrigin>(slope::dup(x, dx), -0.4, 1),
                   1.0 + 0.2 * std::cos(std::atan2(0.4, 1.09)) * (-1.0) * 1.09 /
                             (0.16 + 1.09 * 1.09));
}
