// The reverse sweep of a stencil adds to neighbouring elements of one
// adjoint array in every iteration; optimized builds keep the elements in
// flight in registers (AdjointWindows.cpp), and where another array of
// the loop may overlap them, a test before the loop picks the windowed
// loop or the original. Each kernel is checked against central
// differences in reverse and forward mode, with arrays apart and, for the
// overlap test, with arrays that overlap in the middle of the window.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <cmath>
#include <vector>

namespace {

// A three-point stencil from x into y, then Σ y².
double blur(const double *x, double *y, int n) {
  for (int i = 1; i + 1 < n; ++i)
    y[i] = std::sin(x[i - 1]) + 2 * x[i] * x[i] + 0.5 * x[i + 1];
  double r = 0;
  for (int i = 1; i + 1 < n; ++i)
    r += y[i] * y[i];
  return r;
}

// Five points, two on each side.
double wideBlur(const double *x, double *y, int n) {
  for (int i = 2; i + 2 < n; ++i)
    y[i] = 0.1 * x[i - 2] + std::cos(x[i - 1]) + x[i] * x[i] + 0.3 * x[i + 1] -
           0.2 * x[i + 2];
  double r = 0;
  for (int i = 2; i + 2 < n; ++i)
    r += y[i] * std::exp(0.1 * y[i]);
  return r;
}

// The primal runs backwards, so its reverse runs forwards.
double blurBackwards(const double *x, double *y, int n) {
  for (int i = n - 2; i >= 1; --i)
    y[i] = x[i - 1] * x[i + 1] + std::tanh(x[i]);
  double r = 0;
  for (int i = 1; i + 1 < n; ++i)
    r += (i + 1) * y[i] * y[i];
  return r;
}

// Explicit 2-D heat steps in place through a scratch field, with a
// nonlinear source: the adjoint of each step is a stencil on du.
double heat(double *u, double *scratch, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j) {
        int c = i * n + j;
        scratch[c] =
            u[c] +
            0.2 * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4 * u[c]) +
            0.05 * u[c] * u[c];
      }
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j)
        u[i * n + j] = scratch[i * n + j];
  }
  double r = 0;
  for (int c = 0; c < n * n; ++c)
    r += u[c] * u[c];
  return r;
}

// Every other element (interleaved pairs): no window of neighbours.
double pairs(const double *x, double *y, int n) {
  for (int i = 1; i + 1 < n; ++i)
    y[2 * i] = x[2 * i - 2] * x[2 * i + 2] + x[2 * i + 1];
  double r = 0;
  for (int i = 1; i + 1 < n; ++i)
    r += y[2 * i] * y[2 * i];
  return r;
}

// A contraction, so that y written over x stays of order one.
double smooth(const double *x, double *y, int n) {
  for (int i = 1; i + 1 < n; ++i)
    y[i] = 0.3 * x[i - 1] + 0.4 * std::sin(x[i]) + 0.3 * x[i + 1];
  double r = 0;
  for (int i = 1; i + 1 < n; ++i)
    r += (1 + 0.1 * i) * y[i] * y[i];
  return r;
}

float blurFloat(const float *x, float *y, int n) {
  for (int i = 1; i + 1 < n; ++i)
    y[i] = std::sin(x[i - 1]) + 2 * x[i] * x[i] + 0.5f * x[i + 1];
  float r = 0;
  for (int i = 1; i + 1 < n; ++i)
    r += y[i] * y[i];
  return r;
}

} // namespace

TEST(AdjointWindows, ThreePointStencil) {
  std::vector<double> X = check::wave(9, 0.7), DX(9), Y(9), DY(9);
  SLOPE_EXPECT_GRADIENT(blur, slope::dup(X.data(), DX.data(), 9),
                        slope::dup(Y.data(), DY.data(), 9), 9);
}

TEST(AdjointWindows, FivePointStencil) {
  std::vector<double> X = check::wave(11, 0.6), DX(11), Y(11), DY(11);
  SLOPE_EXPECT_GRADIENT(wideBlur, slope::dup(X.data(), DX.data(), 11),
                        slope::dup(Y.data(), DY.data(), 11), 11);
}

TEST(AdjointWindows, LoopRunningBackwards) {
  std::vector<double> X = check::wave(8, 0.9), DX(8), Y(8), DY(8);
  SLOPE_EXPECT_GRADIENT(blurBackwards, slope::dup(X.data(), DX.data(), 8),
                        slope::dup(Y.data(), DY.data(), 8), 8);
}

TEST(AdjointWindows, HeatStepsInPlace) {
  std::vector<double> U = check::wave(36, 0.8), DU(36), S(36), DS(36);
  SLOPE_EXPECT_GRADIENT(heat, slope::dup(U.data(), DU.data(), 36),
                        slope::dup(S.data(), DS.data(), 36), 6, 3);
}

TEST(AdjointWindows, InterleavedElements) {
  std::vector<double> X = check::wave(14, 0.5), DX(14), Y(14), DY(14);
  SLOPE_EXPECT_GRADIENT(pairs, slope::dup(X.data(), DX.data(), 14),
                        slope::dup(Y.data(), DY.data(), 14), 7);
}

TEST(AdjointWindows, FloatStencil) {
  std::vector<float> X(9), DX(9), Y(9), DY(9);
  for (int I = 0; I < 9; ++I)
    X[I] = 0.7f * std::cos(0.7f * I + 0.2f);
  EXPECT_TRUE(slope::testing::check_gradient<blurFloat>(
      slope::testing::Tolerance{2e-3, 1e-4}, slope::dup(X.data(), DX.data(), 9),
      slope::dup(Y.data(), DY.data(), 9), 9));
}

// y overlaps x, by a shift of a few elements either way: the adjoint of y
// the loop reads and clears is an element of dx the window would hold in
// a register. The test before the loop must send it to the original.
TEST(AdjointWindows, OutputOverlapsInput) {
  constexpr int N = 10, Pad = 3;
  for (int Shift : {-2, -1, 1, 2}) {
    auto Result = [&](double *Buffer) {
      return smooth(Buffer + Pad, Buffer + Pad + Shift, N);
    };
    std::vector<double> Start = check::wave(N + 2 * Pad, 0.6);
    std::vector<double> Expected =
        check::arrayDifferences(Result, Start.data(), int(Start.size()));
    std::vector<double> Buffer = Start, Adjoint(Start.size());
    slope::grad<smooth>(
        slope::dup(Buffer.data() + Pad, Adjoint.data() + Pad),
        slope::dup(Buffer.data() + Pad + Shift, Adjoint.data() + Pad + Shift),
        N);
    for (std::size_t K = 0; K < Start.size(); ++K)
      EXPECT_TRUE(check::near(Adjoint[K], Expected[K], 1e-6, 1e-8))
          << "shift " << Shift << ", element " << K;
  }
}
