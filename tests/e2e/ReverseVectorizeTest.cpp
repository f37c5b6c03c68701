// Loop nests whose reverse sweep the loop vectorizer runs with an overlap
// test where each inner loop starts (the outer loop walks the shadows
// downward, see src/core/reverse/ReverseVectorize.h). The arrays are plain
// pointers, called both apart and overlapping by a few elements, so that
// the test must choose the scalar loop in the second case: each gradient is
// checked against central differences in reverse and forward mode.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <cmath>
#include <vector>

namespace {

// Rows of u get a scaled copy of s, then s gets u's squares back.
double scaleRows(double *u, double *s, int n, int sweeps) {
  for (int k = 0; k < sweeps; ++k) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        u[i * n + j] = 0.9 * s[i * n + j] + 0.1;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        s[i * n + j] = 0.5 * u[i * n + j] * u[i * n + j];
  }
  double r = 0;
  for (int c = 0; c < n * n; ++c)
    r += (1 + 0.01 * c) * (u[c] + s[c]);
  return r;
}

constexpr int N = 9, Sweeps = 2;

TEST(ReverseVectorize, ArraysApart) {
  std::vector<double> U(N * N), DU(N * N), S = check::wave(N * N, 0.8),
                                           DS(N * N);
  EXPECT_TRUE(slope::testing::check_gradient<scaleRows>(
      slope::dup(U.data(), DU.data(), N * N),
      slope::dup(S.data(), DS.data(), N * N), N, Sweeps));
}

// s starts Offset elements after u: each row's ranges overlap.
void expectRightWhenOverlapping(int Offset) {
  int Size = N * N + Offset;
  const std::vector<double> Start = check::wave(Size, 0.7);
  auto Objective = [&](double *Buffer) {
    return scaleRows(Buffer, Buffer + Offset, N, Sweeps);
  };
  std::vector<double> Reference =
      check::arrayDifferences(Objective, Start.data(), Size);
  std::vector<double> Buffer = Start, Adjoint(Size);
  slope::grad<scaleRows>(
      slope::dup(Buffer.data(), Adjoint.data()),
      slope::dup(Buffer.data() + Offset, Adjoint.data() + Offset), N, Sweeps);
  for (int I = 0; I < Size; ++I) {
    EXPECT_TRUE(check::near(Adjoint[I], Reference[I], 1e-6, 1e-9))
        << "reverse, buffer[" << I << "], offset " << Offset;
    std::vector<double> Again = Start, Tangent(Size);
    Tangent[I] = 1;
    double Derivative = slope::derivative<scaleRows>(
        slope::dup(Again.data(), Tangent.data()),
        slope::dup(Again.data() + Offset, Tangent.data() + Offset), N, Sweeps);
    EXPECT_TRUE(check::near(Derivative, Reference[I], 1e-6, 1e-9))
        << "forward, buffer[" << I << "], offset " << Offset;
  }
}

TEST(ReverseVectorize, ArraysOverlapByOne) { expectRightWhenOverlapping(1); }

TEST(ReverseVectorize, ArraysOverlapByARowAndAHalf) {
  expectRightWhenOverlapping(N + N / 2);
}

} // namespace
