// Enzyme's C ABI, used from C (EnzymeKernels.c, EnzymeRules.c compiled
// with the plugin), checked against analytic derivatives and central
// finite differences of the same kernels.
#include "EnzymeKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace {

double centralDifference(const std::function<double(double)> &F, double X) {
  double H = 1e-6 * std::max(1.0, std::fabs(X));
  return (F(X + H) - F(X - H)) / (2 * H);
}

constexpr double Tol = 1e-6;

double rosenbrockDx(double X, double Y) {
  return -2 * (1 - X) - 400 * X * (Y - X * X);
}
double rosenbrockDy(double X, double Y) { return 200 * (Y - X * X); }

// The stencil's output i as a function of input j moved by H.
std::vector<double> stencilAt(std::vector<double> In, int J, double H) {
  In[J] += H;
  std::vector<double> Out(In.size());
  stencil(In.data(), Out.data(), static_cast<int>(In.size()));
  return Out;
}

/// d out[i] / d in[j], by central differences.
double stencilPartial(const std::vector<double> &In, int I, int J) {
  double H = 1e-6;
  return (stencilAt(In, J, H)[I] - stencilAt(In, J, -H)[I]) / (2 * H);
}

const std::vector<double> StencilInput = {0.3, -0.2, 0.5, 0.1, 0.7};

TEST(EnzymeReverse, DefaultActivityReturnsAdjointsAsStruct) {
  double X = 0.4, Y = 1.2;
  EXPECT_NEAR(rev_default_scalar(X, Y),
              rosenbrockDx(X, Y) + 1000 * rosenbrockDy(X, Y), 1e-6);
}

TEST(EnzymeReverse, ConstMarker) {
  EXPECT_NEAR(rev_const_second(0.4, 1.2), rosenbrockDx(0.4, 1.2), Tol);
}

TEST(EnzymeReverse, IntegerArgumentBetweenScalars) {
  double X = 0.3, Y = 1.7, Dy = 0;
  double Dx = rev_int_between(X, 4, Y, &Dy);
  EXPECT_NEAR(
      Dx, centralDifference([&](double V) { return mixed(V, 4, Y); }, X), Tol);
  EXPECT_NEAR(
      Dy, centralDifference([&](double V) { return mixed(X, 4, V); }, Y), Tol);
}

TEST(EnzymeReverse, FloatArgumentsPromotedThroughVarargs) {
  float Dx = 0, Dy = 0;
  rev_float(1.5f, 2.0f, &Dx, &Dy);
  EXPECT_FLOAT_EQ(Dx, 3 * 1.5f * 1.5f * 2.0f);
  EXPECT_FLOAT_EQ(Dy, 1.5f * 1.5f * 1.5f);
}

TEST(EnzymeReverse, ThreeAdjointsThroughMemory) {
  double G[3];
  double A = 1.1, B = 0.7, C = 1.3;
  rev_three(A, B, C, G);
  EXPECT_NEAR(G[0], B * B * C * C * C, Tol);
  EXPECT_NEAR(G[1], 2 * A * B * C * C * C, Tol);
  EXPECT_NEAR(G[2], 3 * A * B * B * C * C, Tol);
}

TEST(EnzymeReverse, PointerDefaultsToDupAndAccumulates) {
  std::vector<double> X = {0.5, -1.0, 2.0}, W = {1.0, 2.0, 0.5};
  std::vector<double> Dx = {10, 20, 30};
  rev_pointers(X.data(), Dx.data(), W.data(), 3);
  double Norm = weighted_norm(X.data(), W.data(), 3);
  for (int I = 0; I < 3; ++I)
    EXPECT_NEAR(Dx[I] - 10 * (I + 1), W[I] * X[I] / Norm, Tol);
}

TEST(EnzymeReverse, VoidKernelSeededThroughShadows) {
  std::vector<double> In = StencilInput, Din(5, 0.0), Out(5), Dout(5);
  std::vector<double> Seeds = {1, 2, 3, 4, 5};
  Dout = Seeds;
  rev_void_kernel(In.data(), Din.data(), Out.data(), Dout.data(), 5);
  EXPECT_EQ(Out, stencilAt(StencilInput, 0, 0.0));
  for (int J = 0; J < 5; ++J) {
    double Expected = 0;
    for (int I = 0; I < 5; ++I)
      Expected += Seeds[I] * stencilPartial(StencilInput, I, J);
    EXPECT_NEAR(Din[J], Expected, 1e-5) << "input " << J;
  }
  for (double D : Dout)
    EXPECT_EQ(D, 0.0); // output adjoints are consumed
}

TEST(EnzymeForward, ScalarTangentsByDefault) {
  double X = 0.4, Y = 1.2;
  EXPECT_NEAR(fwd_scalar(X, 1, Y, 0), rosenbrockDx(X, Y), Tol);
  EXPECT_NEAR(fwd_scalar(X, 0.5, Y, 2),
              0.5 * rosenbrockDx(X, Y) + 2 * rosenbrockDy(X, Y), Tol);
  EXPECT_NEAR(fwd_marked(X, 1, Y), rosenbrockDx(X, Y), Tol);
}

TEST(EnzymeForward, FloatResult) {
  EXPECT_FLOAT_EQ(fwd_float(1.5f, 1.0f, 2.0f), 3 * 1.5f * 1.5f * 2.0f);
}

TEST(EnzymeForward, PointerTangents) {
  std::vector<double> X = {0.5, -1.0, 2.0}, W = {1.0, 2.0, 0.5};
  std::vector<double> Dx = {0.0, 1.0, 0.5};
  double Norm = weighted_norm(X.data(), W.data(), 3), Expected = 0;
  for (int I = 0; I < 3; ++I)
    Expected += Dx[I] * W[I] * X[I] / Norm;
  EXPECT_NEAR(fwd_pointers(X.data(), Dx.data(), W.data(), 3), Expected, Tol);
}

TEST(EnzymeForward, VoidKernelWritesOutputTangents) {
  std::vector<double> In = StencilInput, Din = {0, 1, 0, 0, 1}, Out(5),
                      Dout(5, -1.0);
  fwd_void_kernel(In.data(), Din.data(), Out.data(), Dout.data(), 5);
  for (int I = 0; I < 5; ++I)
    EXPECT_NEAR(Dout[I],
                stencilPartial(StencilInput, I, 1) +
                    stencilPartial(StencilInput, I, 4),
                1e-5)
        << "output " << I;
}

TEST(EnzymeVector, SeparateTangentsPerLane) {
  double X = 0.4, Y = 1.2, J[3];
  fwd_width_scalars(X, Y, J);
  EXPECT_NEAR(J[0], rosenbrockDx(X, Y), Tol);
  EXPECT_NEAR(J[1], rosenbrockDy(X, Y), Tol);
  EXPECT_NEAR(J[2], rosenbrockDx(X, Y) + rosenbrockDy(X, Y), Tol);
}

TEST(EnzymeVector, DupvStridedShadowsGiveTheGradient) {
  std::vector<double> X = {0.5, -1.0, 2.0, 0.25}, W = {1.0, 2.0, 0.5, 3.0};
  double G[4];
  fwd_width_dupv(X.data(), W.data(), 4, G);
  double Norm = weighted_norm(X.data(), W.data(), 4);
  for (int I = 0; I < 4; ++I)
    EXPECT_NEAR(G[I], W[I] * X[I] / Norm, Tol) << "lane " << I;
}

TEST(EnzymeVector, DupvScalarsLoadTheirTangents) {
  double J[2];
  fwd_width_scalar_dupv(0.4, 1.2, J);
  EXPECT_NEAR(J[0], rosenbrockDx(0.4, 1.2), Tol);
  EXPECT_NEAR(J[1], rosenbrockDy(0.4, 1.2), Tol);
}

TEST(EnzymeVector, VoidKernelPrimalRunsOnce) {
  std::vector<double> In = StencilInput, Din0 = {1, 0, 0, 0, 0},
                      Din1 = {0, 0, 1, 0, 0}, Out(5), Dout0(5), Dout1(5);
  fwd_width_void_kernel(In.data(), Din0.data(), Din1.data(), Out.data(),
                        Dout0.data(), Dout1.data(), 5);
  EXPECT_EQ(Out, stencilAt(StencilInput, 0, 0.0));
  for (int I = 0; I < 5; ++I) {
    EXPECT_NEAR(Dout0[I], stencilPartial(StencilInput, I, 0), 1e-5);
    EXPECT_NEAR(Dout1[I], stencilPartial(StencilInput, I, 2), 1e-5);
  }
}

TEST(EnzymeVector, ReverseLanesGiveJacobianRows) {
  std::vector<double> In = StencilInput, Din0(5, 0.0), Din1(5, 0.0), Out(5);
  std::vector<double> Dout0 = {0, 1, 0, 0, 0}, Dout1 = {0, 0, 0, 2, 1};
  rev_width_void_kernel(In.data(), Din0.data(), Din1.data(), Out.data(),
                        Dout0.data(), Dout1.data(), 5);
  EXPECT_EQ(Out, stencilAt(StencilInput, 0, 0.0));
  for (int J = 0; J < 5; ++J) {
    EXPECT_NEAR(Din0[J], stencilPartial(StencilInput, 1, J), 1e-5) << J;
    EXPECT_NEAR(Din1[J],
                2 * stencilPartial(StencilInput, 3, J) +
                    stencilPartial(StencilInput, 4, J),
                1e-5)
        << J;
  }
  EXPECT_EQ(Dout0, std::vector<double>(5, 0.0));
  EXPECT_EQ(Dout1, std::vector<double>(5, 0.0));
}

TEST(EnzymeVector, ReverseDupvLanesEachSeededWithOne) {
  std::vector<double> X = {0.5, -1.0, 2.0, 0.25}, W = {1.0, 2.0, 0.5, 3.0};
  std::vector<double> Grads(12, 0.0);
  rev_width_dupv(X.data(), W.data(), 4, Grads.data());
  double Norm = weighted_norm(X.data(), W.data(), 4);
  for (int Lane = 0; Lane < 3; ++Lane)
    for (int I = 0; I < 4; ++I)
      EXPECT_NEAR(Grads[Lane * 4 + I], W[I] * X[I] / Norm, Tol)
          << "lane " << Lane << " x " << I;
}

TEST(EnzymeVector, ReverseLanesOfActiveScalars) {
  double A = 0.7, B = -1.3, C = 0.4, G[4];
  rev_width_scalars(A, B, C, G);
  double Da = B * B * C * C * C, Db = 2 * A * B * C * C * C;
  EXPECT_NEAR(G[0], Da, Tol);
  EXPECT_NEAR(G[1], Da, Tol);
  EXPECT_NEAR(G[2], Db, Tol);
  EXPECT_NEAR(G[3], Db, Tol);
}

TEST(EnzymeSplit, AugmentedForwardThenReverse) {
  double X = 0.4, Y = 1.2, Primal = 0;
  double Dx = split_scalar(X, Y, 2.5, &Primal);
  EXPECT_DOUBLE_EQ(Primal, rosenbrock(X, Y));
  EXPECT_NEAR(Dx, 2.5 * rosenbrockDx(X, Y), Tol);
}

TEST(EnzymeSplit, SeedsSetBetweenTheSweeps) {
  std::vector<double> In = StencilInput, Din(5, 0.0), Out(5), Dout(5, 0.0);
  split_kernel(In.data(), Din.data(), Out.data(), Dout.data(), 5);
  EXPECT_EQ(Out, stencilAt(StencilInput, 0, 0.0));
  for (int J = 0; J < 5; ++J) {
    double Expected = 0;
    for (int I = 0; I < 5; ++I)
      Expected += (I + 1) * stencilPartial(StencilInput, I, J);
    EXPECT_NEAR(Din[J], Expected, 1e-5) << "input " << J;
  }
}

// Rules are 10× (softclip), 3× (cube) or 2× (square_into) the truth.
double softclipDerivative(double X) {
  double T = std::tanh(X);
  return 1 - T * T;
}

TEST(EnzymeRules, GradientRuleWithTape) {
  double X = 0.6;
  EXPECT_NEAR(rules_reverse(X), 10 * softclipDerivative(X * X) * 2 * X + 1,
              Tol);
  EXPECT_NEAR(rules_reverse_direct(X), 10 * softclipDerivative(X), Tol);
  EXPECT_EQ(rules_tapes_outstanding(), 0);
}

TEST(EnzymeRules, ForwardRuleReturningTheTangent) {
  double X = 0.6;
  EXPECT_NEAR(rules_forward(X, 1), 10 * softclipDerivative(X * X) * 2 * X + 1,
              Tol);
}

TEST(EnzymeRules, ForwardRuleReturningValueAndTangent) {
  EXPECT_NEAR(rules_forward_pair(1.5, 1), 2 * 9 * 1.5 * 1.5, Tol);
}

TEST(EnzymeRules, GradientRuleWithPointers) {
  double X = 1.5, Dx = 0;
  EXPECT_NEAR(rules_reverse_pointer(X), 4 * X + 1, Tol);
  rules_reverse_pointer_direct(X, &Dx);
  EXPECT_NEAR(Dx, 4 * X, Tol);
  double ByAddress = 0;
  rules_reverse_pointer_markers_by_address(X, &ByAddress);
  EXPECT_NEAR(ByAddress, 4 * X, Tol);
}

TEST(EnzymeRules, AugmentedForwardReturningTheResultAlone) {
  // 3·(5·x) + 1 with the rule's 5× derivative of x²/2.
  EXPECT_NEAR(rules_reverse_result_only(0.7), 3 * 5 * 0.7 + 1, Tol);
}

TEST(EnzymeRules, AugmentedForwardKeepsMemoryOverwrittenLater) {
  const double Start[2] = {0.4, 1.1};
  double State[2] = {Start[0], Start[1]}, DState[2] = {0, 0};
  rules_reverse_overwritten(State, DState, 3);
  EXPECT_EQ(rules_tapes_outstanding(), 0);
  for (int I = 0; I < 2; ++I) {
    double Plus[2] = {Start[0], Start[1]}, Minus[2] = {Start[0], Start[1]};
    Plus[I] += 1e-6;
    Minus[I] -= 1e-6;
    double Reference =
        (rules_norm2_steps(Plus, 3) - rules_norm2_steps(Minus, 3)) / 2e-6;
    EXPECT_NEAR(DState[I], Reference, 1e-6) << "state[" << I << "]";
  }
}

TEST(EnzymeRules, InactiveFunctionsRunWithoutDerivative) {
  int Calls = 0;
  EXPECT_NEAR(rules_inactive(1.25, &Calls), 2 * 1.25, Tol);
  EXPECT_EQ(Calls, 1);
}

} // namespace
