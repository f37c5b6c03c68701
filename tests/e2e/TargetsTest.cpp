// Every kind of target the contract names, in both modes: function-template
// instantiations, static member functions, inline functions in namespaces,
// captureless lambdas (C++20: this file is compiled as C++20), function
// pointer constants; and calls through function pointers whose value is
// known at compile time inside the differentiated code.
#include "Expect.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

template <class T> T cube(T X) { return X * X * X; }

struct Spring {
  static double energy(double X, double K) { return 0.5 * K * X * X; }
};

constexpr auto softplus = [](double X) { return std::log1p(std::exp(X)); };
constexpr auto twice = [](double X) { return softplus(X) + softplus(2 * X); };

constexpr double (*SelectedCube)(double) = &cube<double>;

double shape(double X) { return X * X * std::sin(X); }

double throughLocal(double X) {
  double (*G)(double) = shape;
  return G(X) + 1;
}

double applyTwice(double (*F)(double), double X) { return F(F(X)); }
double throughParameter(double X) { return applyTwice(shape, X) + X; }

struct Callbacks {
  double (*First)(double);
  double (*Second)(double);
};
double throughStruct(double X) {
  Callbacks C{shape, std::exp};
  return C.First(X) * C.Second(X);
}

} // namespace

namespace physics {
inline double pendulum(double Theta, double Length) {
  return Length * (1 - std::cos(Theta));
}
} // namespace physics

TEST(Targets, FunctionTemplateInstantiations) {
  check::expectFirstArg<cube<double>>(1.5, 3 * 1.5 * 1.5, 1e-15);
  EXPECT_FLOAT_EQ(slope::grad<cube<float>>(1.5f), 3 * 1.5f * 1.5f);
  EXPECT_FLOAT_EQ(slope::derivative<cube<float>>(slope::dual(1.5f, 1.0f)),
                  3 * 1.5f * 1.5f);
}

TEST(Targets, StaticMemberFunctions) {
  auto [DX, DK] = slope::grad<&Spring::energy>(0.3, 4.0);
  EXPECT_DOUBLE_EQ(DX, 4.0 * 0.3);
  EXPECT_DOUBLE_EQ(DK, 0.5 * 0.3 * 0.3);
  EXPECT_DOUBLE_EQ(
      slope::derivative<Spring::energy>(slope::dual(0.3, 1.0), 4.0), 4.0 * 0.3);
}

TEST(Targets, InlineFunctionsInNamespaces) {
  auto [DTheta, DLength] = slope::grad<physics::pendulum>(0.4, 2.0);
  EXPECT_DOUBLE_EQ(DTheta, 2.0 * std::sin(0.4));
  EXPECT_DOUBLE_EQ(DLength, 1 - std::cos(0.4));
  EXPECT_DOUBLE_EQ(
      slope::derivative<physics::pendulum>(slope::dual(0.4, 1.0), 2.0),
      2.0 * std::sin(0.4));
}

TEST(Targets, CapturelessLambdas) {
  auto Sigmoid = [](double X) { return 1 / (1 + std::exp(-X)); };
  check::expectFirstArg<softplus>(0.8, Sigmoid(0.8), 1e-15);
  check::expectFirstArg<twice>(0.8, Sigmoid(0.8) + 2 * Sigmoid(1.6), 1e-15);
}

TEST(Targets, FunctionPointerConstants) {
  check::expectFirstArg<SelectedCube>(2.0, 12.0, 1e-15);
}

TEST(Targets, CallsThroughKnownFunctionPointers) {
  check::expectFirstArgFD<throughLocal>(0.7);
  check::expectFirstArgFD<throughParameter>(0.7);
  check::expectFirstArgFD<throughStruct>(0.7);
}
