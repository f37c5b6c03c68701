// Array kernels through pointers, loops, heap scratch buffers and in-place
// updates, in both modes, against central differences of the long double
// instantiation (reverse) and the dot-product test ⟨J·v⟩ = ⟨∇f, v⟩
// (forward).
#include "Kernels.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace {

using Vector = std::vector<double>;
using Reference = std::function<long double(std::vector<long double> &)>;

std::vector<long double> centralGradient(const Vector &X, const Reference &F) {
  std::vector<long double> Args(X.begin(), X.end()), Gradient(X.size());
  for (size_t I = 0; I < X.size(); ++I) {
    long double Step = 1e-6L * std::max<long double>(1, std::fabs(Args[I]));
    long double Saved = Args[I];
    Args[I] = Saved + Step;
    long double Up = F(Args);
    Args[I] = Saved - Step;
    long double Down = F(Args);
    Args[I] = Saved;
    Gradient[I] = (Up - Down) / (2 * Step);
  }
  return Gradient;
}

void expectGradient(const Vector &AD, const std::vector<long double> &Ref,
                    double Tol) {
  ASSERT_EQ(AD.size(), Ref.size());
  long double Scale = 1;
  for (long double G : Ref)
    Scale = std::max(Scale, std::fabs(G));
  for (size_t I = 0; I < AD.size(); ++I)
    EXPECT_NEAR(AD[I], static_cast<double>(Ref[I]), Tol * Scale)
        << "component " << I;
}

/// A deterministic direction with components in [-1, 1].
Vector direction(size_t N) {
  Vector V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = std::sin(1.7 * I + 0.3);
  return V;
}

double inner(const Vector &A, const Vector &B) {
  double S = 0;
  for (size_t I = 0; I < A.size(); ++I)
    S += A[I] * B[I];
  return S;
}

Vector ramp(size_t N, double Scale) {
  Vector V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = Scale * std::cos(0.37 * I + 0.1);
  return V;
}

TEST(Kernels, SumOfSquares) {
  Vector X = ramp(9, 1.5), DX(X.size(), 0.5); // shadows accumulate
  slope::grad<kernels::sumsq<double>>(slope::dup(X.data(), DX.data()), 9);
  for (size_t I = 0; I < X.size(); ++I)
    EXPECT_DOUBLE_EQ(DX[I], 0.5 + 2 * X[I]);
  Vector V = direction(9);
  double Tangent = slope::derivative<kernels::sumsq<double>>(
      slope::dup(X.data(), V.data()), 9);
  EXPECT_NEAR(Tangent, 2 * inner(X, V), 1e-12);
}

TEST(Kernels, DotWithOneConstantVector) {
  Vector A = ramp(7, 2.0), B = ramp(7, -0.5), DA(7, 0.0);
  slope::grad<kernels::dot<double>>(slope::dup(A.data(), DA.data()),
                                    slope::constant(B.data()), 7);
  for (size_t I = 0; I < A.size(); ++I)
    EXPECT_DOUBLE_EQ(DA[I], B[I]);
  Vector V = direction(7);
  EXPECT_NEAR(slope::derivative<kernels::dot<double>>(
                  slope::dup(A.data(), V.data()), slope::constant(B.data()), 7),
              inner(B, V), 1e-12);
}

TEST(Kernels, MatVecSeededThroughOutputShadow) {
  const int N = 5;
  Vector A = ramp(N * N, 1.0), X = ramp(N, 2.0), Y(N, 0.0);
  Vector DA(N * N, 0.0), DX(N, 0.0), DY = direction(N);
  Vector Seed = DY;
  slope::grad<kernels::matvec<double>>(slope::dup(A.data(), DA.data()),
                                       slope::dup(X.data(), DX.data()),
                                       slope::dup(Y.data(), DY.data()), N);
  for (int I = 0; I < N; ++I) {
    double Expected = 0;
    for (int J = 0; J < N; ++J) {
      Expected += A[I * N + J] * X[J];
      EXPECT_DOUBLE_EQ(DA[I * N + J], Seed[I] * X[J]);
    }
    EXPECT_NEAR(Y[I], Expected, 1e-12) << "primal effect";
    EXPECT_EQ(DY[I], 0.0) << "output seeds are zeroed";
  }
  for (int J = 0; J < N; ++J) {
    double Expected = 0;
    for (int I = 0; I < N; ++I)
      Expected += A[I * N + J] * Seed[I];
    EXPECT_NEAR(DX[J], Expected, 1e-12);
  }
  // Forward: ẏ = Ȧ x + A ẋ.
  Vector TA = direction(N * N), TX = ramp(N, 0.3), TY(N, 0.0);
  slope::derivative<kernels::matvec<double>>(
      slope::dup(A.data(), TA.data()), slope::dup(X.data(), TX.data()),
      slope::dup(Y.data(), TY.data()), N);
  for (int I = 0; I < N; ++I) {
    double Expected = 0;
    for (int J = 0; J < N; ++J)
      Expected += TA[I * N + J] * X[J] + A[I * N + J] * TX[J];
    EXPECT_NEAR(TY[I], Expected, 1e-12);
  }
}

TEST(Kernels, HornerWithActiveCoefficients) {
  const int Degree = 6;
  Vector C = ramp(Degree + 1, 1.2), DC(C.size(), 0.0);
  double X = 0.8;
  double DXValue = slope::grad<kernels::horner<double>>(
      slope::dup(C.data(), DC.data()), Degree, X);
  double Power = 1, Derivative = 0;
  for (int K = 0; K <= Degree; ++K) {
    EXPECT_NEAR(DC[K], Power, 1e-14);
    if (K > 0)
      Derivative += K * C[K] * std::pow(X, K - 1);
    Power *= X;
  }
  EXPECT_NEAR(DXValue, Derivative, 1e-12);
  Vector V = direction(C.size());
  double Tangent = slope::derivative<kernels::horner<double>>(
      slope::dup(C.data(), V.data()), Degree, slope::dual(X, 1.0));
  EXPECT_NEAR(Tangent, inner(DC, V) + Derivative, 1e-12);
}

TEST(Kernels, HeatStencilInPlace) {
  const int Cells = 128, Steps = 100;
  const double K = 0.2;
  Vector U0 = ramp(Cells, 1.0);
  Vector U = U0, DU(Cells, 0.0);
  auto [Value, DK] = slope::value_and_grad<kernels::heat<double>>(
      slope::dup(U.data(), DU.data()), Cells, Steps, K);
  Vector Expected = U0;
  EXPECT_NEAR(Value, kernels::heat(Expected.data(), Cells, Steps, K), 1e-9);
  EXPECT_EQ(U, Expected) << "u ends up as a plain call leaves it";

  auto Ref = centralGradient(U0, [&](std::vector<long double> &Args) {
    std::vector<long double> Copy = Args;
    return kernels::heat(Copy.data(), Cells, Steps, 0.2L);
  });
  expectGradient(DU, Ref, 1e-7);
  auto RefK = centralGradient({K}, [&](std::vector<long double> &Args) {
    std::vector<long double> Copy(U0.begin(), U0.end());
    return kernels::heat(Copy.data(), Cells, Steps, Args[0]);
  });
  EXPECT_NEAR(DK, static_cast<double>(RefK[0]), 1e-7 * std::fabs(RefK[0]));

  Vector V = direction(Cells), W = U0;
  double Tangent = slope::derivative<kernels::heat<double>>(
      slope::dup(W.data(), V.data()), Cells, Steps, K);
  EXPECT_NEAR(Tangent, inner(DU, direction(Cells)), 1e-9 * std::fabs(Tangent));
}

TEST(Kernels, CrossEntropyWithMaxShift) {
  const int N = 6;
  Vector Z = ramp(N, 30.0), DZ(N, 0.0); // large logits: the shift matters
  slope::grad<kernels::crossEntropy<double>>(slope::dup(Z.data(), DZ.data()), N,
                                             2);
  auto Ref = centralGradient(Z, [&](std::vector<long double> &Args) {
    return kernels::crossEntropy(Args.data(), N, 2);
  });
  expectGradient(DZ, Ref, 1e-8);
  Vector V = direction(N);
  EXPECT_NEAR(slope::derivative<kernels::crossEntropy<double>>(
                  slope::dup(Z.data(), V.data()), N, 2),
              inner(DZ, V), 1e-12);
}

TEST(Kernels, NBodyPotential) {
  const int N = 6;
  Vector R = ramp(3 * N, 2.0), Mass = ramp(N, 1.0), DR(3 * N, 0.0);
  for (double &M : Mass)
    M = 1.5 + M;
  slope::grad<kernels::nbody<double>>(slope::dup(R.data(), DR.data()),
                                      slope::constant(Mass.data()), N, 1e-3);
  std::vector<long double> MassL(Mass.begin(), Mass.end());
  auto Ref = centralGradient(R, [&](std::vector<long double> &Args) {
    return kernels::nbody(Args.data(), MassL.data(), N, 1e-3L);
  });
  expectGradient(DR, Ref, 1e-8);
  Vector V = direction(3 * N);
  EXPECT_NEAR(slope::derivative<kernels::nbody<double>>(
                  slope::dup(R.data(), V.data()), slope::constant(Mass.data()),
                  N, 1e-3),
              inner(DR, V), 1e-10);
}

TEST(Kernels, GaussianMixtureObjective) {
  const int N = 10, D = 3, K = 4, M = 0;
  const int Params = K + K * D + K * D * (D + 1) / 2;
  Vector P = ramp(Params, 0.5), X = ramp(N * D, 1.5), DP(Params, 0.0);
  slope::grad<kernels::gmm<double>>(slope::dup(P.data(), DP.data()),
                                    slope::constant(X.data()), N, D, K, 1.0, M);
  std::vector<long double> XL(X.begin(), X.end());
  auto Ref = centralGradient(P, [&](std::vector<long double> &Args) {
    return kernels::gmm(Args.data(), XL.data(), N, D, K, 1.0L, M);
  });
  expectGradient(DP, Ref, 1e-8);
  Vector V = direction(Params);
  double Tangent = slope::derivative<kernels::gmm<double>>(
      slope::dup(P.data(), V.data()), slope::constant(X.data()), N, D, K, 1.0,
      M);
  EXPECT_NEAR(Tangent, inner(DP, V), 1e-9 * std::max(1.0, std::fabs(Tangent)));
}

} // namespace
