// Custom derivatives win over the body (proven by rules that return
// deliberately different derivatives), make functions without a body
// differentiable, apply to calls inside other functions in both modes, and
// SLOPE_INACTIVE functions contribute nothing.
#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

// A function whose body lives elsewhere: only its rule is known.
double elsewhere(double x);

namespace {

double softplus(double x, double beta) {
  return std::log1p(std::exp(beta * x)) / beta;
}
// Distinguishable: 100·ẋ + 1000·β̇ forward, (7, 70)·ȳ backward.
slope::Dual<double> softplusForward(double x, double dx, double beta,
                                    double dbeta) {
  return {softplus(x, beta), 100 * dx + 1000 * dbeta};
}
std::tuple<double, double> softplusPullback(double x, double beta, double dy) {
  return {7 * dy, 70 * dy};
}

// An identity the optimizer can see through: the rule must still win.
double identity(double x) { return x; }
slope::Dual<double> identityForward(double x, double dx) { return {x, 5 * dx}; }
double identityPullback(double x, double dy) { return 5 * dy; }

slope::Dual<double> elsewhereForward(double x, double dx) {
  return {2 * x, 3 * dx};
}
double elsewherePullback(double x, double dy) { return 3 * dy; }

// A rule for a function with a pointer parameter and no result:
// y[0] = x[0]² with the pullback accumulating into x's shadow.
void squareInto(const double *x, double *y) { y[0] = x[0] * x[0]; }
void squareIntoForward(const double *x, const double *dx, double *y,
                       double *dy) {
  y[0] = x[0] * x[0];
  dy[0] = 11 * dx[0];
}
void squareIntoPullback(const double *x, double *dx, double *y, double *dy) {
  dx[0] += 11 * dy[0];
  dy[0] = 0;
}

} // namespace

SLOPE_CUSTOM_DERIVATIVE(softplus, softplusForward, softplusPullback);
SLOPE_CUSTOM_DERIVATIVE(identity, identityForward, identityPullback);
SLOPE_CUSTOM_DERIVATIVE(elsewhere, elsewhereForward, elsewherePullback);
SLOPE_CUSTOM_DERIVATIVE(squareInto, squareIntoForward, squareIntoPullback);

SLOPE_INACTIVE double jitter(double x);

namespace {

double model(double x) { return 2 * softplus(x * x, 3.0) + identity(x) * x; }
double usesElsewhere(double x) { return elsewhere(x) * x; }
double withJitter(double x) { return x * x + jitter(x); }
double chain(const double *x, double *y) {
  squareInto(x, y);
  return y[0] * 2;
}

TEST(CustomDerivatives, RuleOnTheTargetItself) {
  auto [DX, DBeta] = slope::grad<softplus>(0.5, 2.0);
  EXPECT_EQ(DX, 7.0);
  EXPECT_EQ(DBeta, 70.0);
  EXPECT_EQ(slope::derivative<softplus>(slope::dual(0.5, 1.0), 2.0), 100.0);
  EXPECT_EQ(slope::derivative<softplus>(0.5, slope::dual(2.0, 1.0)), 1000.0);
  // A constant argument's adjoint is dropped, its tangent is zero.
  EXPECT_EQ(slope::grad<softplus>(0.5, slope::constant(2.0)), 7.0);
}

TEST(CustomDerivatives, RulesApplyToCallsInsideOtherFunctions) {
  double X = 0.5;
  // d/dx [2·softplus(x², 3) + identity(x)·x] with the rules' derivatives:
  // 2·7·2x + (5·x + x).
  double Expected = 2 * 7 * 2 * X + 5 * X + X;
  EXPECT_DOUBLE_EQ(slope::grad<model>(X), Expected);
  double ExpectedForward = 2 * 100 * 2 * X + 5 * X + X;
  EXPECT_DOUBLE_EQ(slope::derivative<model>(slope::dual(X, 1.0)),
                   ExpectedForward);
}

TEST(CustomDerivatives, FunctionWithoutVisibleBody) {
  EXPECT_DOUBLE_EQ(slope::grad<usesElsewhere>(1.5), 3 * 1.5 + 2 * 1.5);
  EXPECT_DOUBLE_EQ(slope::derivative<usesElsewhere>(slope::dual(1.5, 1.0)),
                   3 * 1.5 + 2 * 1.5);
}

TEST(CustomDerivatives, PointerParameters) {
  double X = 3, DX = 0, Y = 0, DY = 0;
  double G = 0;
  slope::grad<chain>(slope::dup(&X, &DX), slope::dup(&Y, &DY));
  G = DX;
  EXPECT_EQ(G, 22.0); // 2 · 11
  EXPECT_EQ(Y, 9.0);
  double TX = 1, TY = 0;
  EXPECT_EQ(slope::derivative<chain>(slope::dup(&X, &TX), slope::dup(&Y, &TY)),
            22.0);
  EXPECT_EQ(TY, 11.0);
}

TEST(CustomDerivatives, InactiveFunctionsContributeNothing) {
  EXPECT_DOUBLE_EQ(slope::grad<withJitter>(1.5), 3.0);
  EXPECT_DOUBLE_EQ(slope::derivative<withJitter>(slope::dual(1.5, 1.0)), 3.0);
}

} // namespace

double elsewhere(double x) { return 2 * x; }
double jitter(double x) { return std::sin(1000 * x) * 1e-3; }
