// Scalar recurrences: the reverse sweep carries one adjoint from iteration
// to iteration and computes each iteration's share for a unit seed, scaled
// once (SeedFactoring.h). Checked against forward mode and central
// differences where the linear part of an iteration leaves through
// accumulated adjoints, shadow memory, a branch inside the step, inner
// loops, and in float.
#include "Check.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

template <class T> T rationalLogistic(T x, T r, T c, int steps) {
  for (int s = 0; s < steps; ++s)
    x = r * x * (1 - x) + c * x * x / (1 + x * x);
  return x;
}

// The step differs by the side of 0.4 the value is on: the reverse merges
// the two sides' adjoints inside the iteration.
double branchyStep(double x, double a, double b, int steps) {
  for (int s = 0; s < steps; ++s)
    x = x < 0.4 ? a * x * (1 + x) : b * std::sin(x) * x + 0.1;
  return x;
}

// Each iteration's weight gets its adjoint in shadow memory.
double weightedSteps(double x, const double *w, int steps) {
  for (int s = 0; s < steps; ++s)
    x = w[s] * x * (1 - x) + 0.1 * x;
  return x;
}

// An inner loop inside each step.
double innerSums(double x, double h, int steps, int terms) {
  for (int s = 0; s < steps; ++s) {
    double sum = 0;
    for (int j = 0; j < terms; ++j)
      sum += std::sin((j + 1) * x) / (j + 1);
    x = x + h * sum * x;
  }
  return x;
}

TEST(CarriedAdjoints, ResultAndAccumulatedAdjoints) {
  for (int Steps : {1, 2, 12}) {
    double X = 0.3, R = 2.5, C = 0.2;
    auto F = [&](double x, double r, double c) {
      return rationalLogistic<double>(x, r, c, Steps);
    };
    auto [GX, GR, GC] = slope::grad<rationalLogistic<double>>(X, R, C, Steps);
    double FX = slope::derivative<rationalLogistic<double>>(slope::dual(X, 1.0),
                                                            R, C, Steps);
    double FR = slope::derivative<rationalLogistic<double>>(
        X, slope::dual(R, 1.0), C, Steps);
    double FC = slope::derivative<rationalLogistic<double>>(
        X, R, slope::dual(C, 1.0), Steps);
    EXPECT_TRUE(check::near(GX, FX, 1e-12)) << Steps << " steps";
    EXPECT_TRUE(check::near(GR, FR, 1e-12)) << Steps << " steps";
    EXPECT_TRUE(check::near(GC, FC, 1e-12)) << Steps << " steps";
    EXPECT_TRUE(check::near(GX, check::centralDifference<0>(F, X, R, C), 1e-6));
    EXPECT_TRUE(check::near(GR, check::centralDifference<1>(F, X, R, C), 1e-6));
    EXPECT_TRUE(check::near(GC, check::centralDifference<2>(F, X, R, C), 1e-6));
  }
}

TEST(CarriedAdjoints, NoIterations) {
  auto [GX, GR, GC] = slope::grad<rationalLogistic<double>>(0.3, 2.5, 0.2, 0);
  EXPECT_EQ(GX, 1.0);
  EXPECT_EQ(GR, 0.0);
  EXPECT_EQ(GC, 0.0);
}

TEST(CarriedAdjoints, BranchInsideTheStep) {
  double X = 0.3, A = 1.2, B = 0.9;
  auto F = [](double x, double a, double b) {
    return branchyStep(x, a, b, 12);
  };
  auto [GX, GA, GB] = slope::grad<branchyStep>(X, A, B, 12);
  EXPECT_TRUE(check::near(GX, check::centralDifference<0>(F, X, A, B), 1e-6));
  EXPECT_TRUE(check::near(GA, check::centralDifference<1>(F, X, A, B), 1e-6));
  EXPECT_TRUE(check::near(GB, check::centralDifference<2>(F, X, A, B), 1e-6));
  EXPECT_TRUE(check::near(
      GX, slope::derivative<branchyStep>(slope::dual(X, 1.0), A, B, 12),
      1e-12));
}

TEST(CarriedAdjoints, AdjointsStoredEveryIteration) {
  const int Steps = 12;
  std::vector<double> W(Steps), DW(Steps);
  for (int S = 0; S < Steps; ++S)
    W[S] = 2.2 + 0.5 * std::sin(S);
  double X = 0.35;
  double GX =
      slope::grad<weightedSteps>(X, slope::dup(W.data(), DW.data()), Steps);
  EXPECT_TRUE(
      check::near(GX,
                  slope::derivative<weightedSteps>(
                      slope::dual(X, 1.0), slope::constant(W.data()), Steps),
                  1e-12));
  for (int S : {0, 1, Steps / 2, Steps - 1}) {
    std::vector<double> Up = W, Down = W;
    double H = 1e-6;
    Up[S] += H;
    Down[S] -= H;
    double Reference = (weightedSteps(X, Up.data(), Steps) -
                        weightedSteps(X, Down.data(), Steps)) /
                       (2 * H);
    EXPECT_TRUE(check::near(DW[S], Reference, 1e-6, 1e-10)) << "w[" << S << "]";
  }
}

TEST(CarriedAdjoints, InnerLoopInEachStep) {
  double X = 0.7, H = 0.05;
  auto F = [](double x, double h) { return innerSums(x, h, 30, 5); };
  auto [GX, GH] = slope::grad<innerSums>(X, H, 30, 5);
  EXPECT_TRUE(check::near(GX, check::centralDifference<0>(F, X, H), 1e-6));
  EXPECT_TRUE(check::near(GH, check::centralDifference<1>(F, X, H), 1e-6));
}

TEST(CarriedAdjoints, Float) {
  float X = 0.3f, R = 2.5f, C = 0.2f;
  auto [GX, GR, GC] = slope::grad<rationalLogistic<float>>(X, R, C, 20);
  double DX = slope::derivative<rationalLogistic<double>>(slope::dual(0.3, 1.0),
                                                          2.5, 0.2, 20);
  double DR = slope::derivative<rationalLogistic<double>>(
      0.3, slope::dual(2.5, 1.0), 0.2, 20);
  double DC = slope::derivative<rationalLogistic<double>>(
      0.3, 2.5, slope::dual(0.2, 1.0), 20);
  EXPECT_TRUE(check::near(GX, DX, 1e-3));
  EXPECT_TRUE(check::near(GR, DR, 1e-3));
  EXPECT_TRUE(check::near(GC, DC, 1e-3));
}

} // namespace
