// Recursive functions that read and write memory through slope::dup
// pointers. In reverse mode each call runs the callee's augmented forward
// in the primal sweep and its reverse part in the reverse sweep, so a
// recursion of depth n costs O(n).
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>
#include <vector>

namespace {

double sumOfSquares(const double *X, int N) {
  return N == 0 ? 0.0 : X[0] * X[0] + sumOfSquares(X + 1, N - 1);
}

// Divide and conquer with two recursive calls per level.
double pairwise(const double *X, int N) {
  if (N == 1)
    return std::sin(X[0]);
  int Half = N / 2;
  return pairwise(X, Half) * pairwise(X + Half, N - Half) + X[0];
}

// Writes through the pointer on the way down and reads on the way up.
void prefixProducts(double *X, int N) {
  if (N <= 1)
    return;
  X[1] *= X[0];
  prefixProducts(X + 1, N - 1);
  X[0] = std::cos(X[0]) + X[1];
}

double afterPrefixProducts(double *X, int N) {
  prefixProducts(X, N);
  double T = 0;
  for (int I = 0; I < N; ++I)
    T += X[I] * (I + 1);
  return T;
}

// A local array indexed at run time lives in the record of each call.
double withLocalArray(const double *X, int N, int Pick) {
  double Buffer[3] = {X[0], X[0] * X[0], std::exp(X[0])};
  if (N == 1)
    return Buffer[Pick % 3];
  return Buffer[Pick % 3] * withLocalArray(X + 1, N - 1, Pick + 1);
}

// Heap scratch allocated and freed in every call.
double heapScratch(const double *X, int N) {
  if (N == 0)
    return 1.0;
  double *Scratch = new double[2];
  Scratch[0] = X[0] * 2;
  Scratch[1] = std::log(1 + X[0] * X[0]);
  double R = Scratch[0] + Scratch[1] * heapScratch(X + 1, N - 1);
  delete[] Scratch;
  return R;
}

double isOdd(const double *X, int N);
double isEven(const double *X, int N) {
  return N == 0 ? 1.0 : X[0] * isOdd(X + 1, N - 1);
}
double isOdd(const double *X, int N) {
  return N == 0 ? 0.5 : std::sin(X[0]) + isEven(X + 1, N - 1);
}

// Recursive calls inside a loop of the caller: one record per iteration.
double repeated(const double *X, int N, int Times) {
  double T = 0;
  for (int K = 0; K < Times; ++K)
    T += sumOfSquares(X, N) * (K + 1) + pairwise(X, N);
  return T;
}

// The same callee with a differentiated and with a constant array.
double mixedActivity(const double *X, const double *C, int N) {
  return sumOfSquares(X, N) * sumOfSquares(C, N);
}

// Recursion through an output array and a returned scalar.
double accumulateInto(const double *X, double *Out, int N) {
  if (N == 0)
    return 0;
  Out[0] += X[0] * X[0];
  return X[0] + 2 * accumulateInto(X + 1, Out + 1, N - 1);
}

double useAccumulate(const double *X, int N) {
  std::vector<double> Out(N, 1.0);
  double R = accumulateInto(X, Out.data(), N);
  double T = 0;
  for (int I = 0; I < N; ++I)
    T += std::sqrt(Out[I]);
  return R * T;
}

// A void function with an active scalar parameter: the reverse part
// returns its adjoint.
void addScaled(double S, double *Y, int N) {
  if (N == 0)
    return;
  Y[0] += S * S;
  addScaled(S * 1.1, Y + 1, N - 1);
}

double sumAfterAddScaled(double S, double *Y, int N) {
  addScaled(S, Y, N);
  double T = 0;
  for (int I = 0; I < N; ++I)
    T += Y[I] * Y[I];
  return T;
}

std::vector<double> input(int N) {
  std::vector<double> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = 0.3 + 0.1 * I - 0.02 * I * I;
  return X;
}

/// Reverse-mode gradient and forward-mode directional derivatives along
/// every unit vector, against central differences.
template <auto F, class... Rest> void checkArray(int N, Rest... rest) {
  std::vector<double> X = input(N), Before = X;
  std::vector<double> Expected = check::arrayDifferences(
      [](double *P, auto... R) { return F(P, R...); }, X.data(), N, N, rest...);
  std::vector<double> Grad(N, 0.0);
  slope::grad<F>(slope::dup(X.data(), Grad.data()), N, rest...);
  for (int I = 0; I < N; ++I)
    EXPECT_TRUE(check::near(Grad[I], Expected[I], 1e-6, 1e-9))
        << "reverse, element " << I;
  for (int I = 0; I < N; ++I) {
    X = Before;
    std::vector<double> Tangent(N, 0.0);
    Tangent[I] = 1;
    double D =
        slope::derivative<F>(slope::dup(X.data(), Tangent.data()), N, rest...);
    EXPECT_TRUE(check::near(D, Expected[I], 1e-6, 1e-9))
        << "forward, element " << I;
  }
}

TEST(RecursionThroughMemory, LinearRecursion) { checkArray<sumOfSquares>(7); }

TEST(RecursionThroughMemory, DivideAndConquer) { checkArray<pairwise>(9); }

TEST(RecursionThroughMemory, WritesOnTheWayDownReadsOnTheWayUp) {
  checkArray<afterPrefixProducts>(6);
}

TEST(RecursionThroughMemory, LocalArraysLiveInTheRecord) {
  checkArray<withLocalArray>(5, 1);
}

TEST(RecursionThroughMemory, HeapScratchInEveryCall) {
  checkArray<heapScratch>(6);
}

TEST(RecursionThroughMemory, MutualRecursion) { checkArray<isEven>(7); }

TEST(RecursionThroughMemory, RecursiveCallsInALoop) {
  checkArray<repeated>(5, 3);
}

TEST(RecursionThroughMemory, OutputArrays) { checkArray<useAccumulate>(5); }

TEST(RecursionThroughMemory, VoidCalleeWithActiveScalar) {
  constexpr int N = 4;
  auto F = [](double S) {
    std::vector<double> Y = input(N);
    return sumAfterAddScaled(S, Y.data(), N);
  };
  long double Expected = check::centralDifference<0>(F, 0.7);
  std::vector<double> Y = input(N), DY(N, 0.0);
  double DS =
      slope::grad<sumAfterAddScaled>(0.7, slope::dup(Y.data(), DY.data()), N);
  EXPECT_TRUE(check::near(DS, Expected, 1e-7)) << "reverse";
  Y = input(N);
  std::vector<double> TY(N, 0.0);
  EXPECT_TRUE(check::near(
      slope::derivative<sumAfterAddScaled>(slope::dual(0.7, 1.0),
                                           slope::dup(Y.data(), TY.data()), N),
      Expected, 1e-7))
      << "forward";
}

TEST(RecursionThroughMemory, SameCalleeDifferentActivity) {
  std::vector<double> X = input(4), C = {1, 2, 3, 4}, G(4, 0.0);
  slope::grad<mixedActivity>(slope::dup(X.data(), G.data()),
                             slope::constant(C.data()), 4);
  // ∂/∂x_i (Σx²·Σc²) = 2·x_i·30
  for (int I = 0; I < 4; ++I)
    EXPECT_DOUBLE_EQ(G[I], 2 * X[I] * 30);
}

TEST(RecursionThroughMemory, DeepRecursionIsLinear) {
  // 20000 levels: a reverse sweep that recomputed each callee would do
  // 2·10⁸ steps; the split one does 4·10⁴.
  constexpr int N = 20000;
  std::vector<double> X = input(N), G(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = 1e-3 * (I % 7);
  slope::grad<sumOfSquares>(slope::dup(X.data(), G.data()), N);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(G[I], 2 * X[I]) << I;
}

} // namespace
