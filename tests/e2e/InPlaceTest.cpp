// In-place code: memory a loop reads and a later iteration (or a later
// loop, or the next sweep) overwrites. The reverse sweep may read a value
// again from memory only if no write that can follow the read changes it;
// each kernel here reads something that a later write does change -- a
// value, a branch condition, a trip count, a guard, an index -- so a
// reverse sweep that loaded it again would be wrong (or read outside its
// tape). Every kernel is checked against central differences in reverse,
// forward and (for some) vector reverse mode.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

/// Σ (1 + i/2)·x[i]: the objective after an in-place pass.
template <class T> T weightedSum(const T *x, int n) {
  T r = 0;
  for (int i = 0; i < n; ++i)
    r += T(1 + 0.5 * i) * x[i];
  return r;
}

// One Gauss-Seidel sweep: x[i + 1] read in iteration i is what iteration
// i + 1 overwrites.
template <class T> T gaussSeidel(T *x, int n) {
  for (int i = 1; i + 1 < n; ++i)
    x[i] = T(0.25) * (x[i - 1] + x[i + 1]) + T(0.1) * x[i - 1] * x[i + 1];
  return weightedSum(x, n);
}

// The same with an unrelated heap buffer (it made every load look written
// at -O0 and hid the bug there).
double gaussSeidelWithScratch(double *x, int n) {
  double *scratch = static_cast<double *>(std::malloc(sizeof(double) * n));
  for (int i = 0; i < n; ++i)
    scratch[i] = 0.5 * i;
  for (int i = 1; i + 1 < n; ++i)
    x[i] = 0.25 * (x[i - 1] + x[i + 1]) + 0.1 * x[i - 1] * x[i + 1] +
           0.01 * scratch[i];
  double r = weightedSum(x, n);
  std::free(scratch);
  return r;
}

double shiftedCosine(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i - 1] = x[i - 1] * std::cos(x[i]);
  return weightedSum(x, n);
}

// Several sweeps of a 2-D Gauss-Seidel smoother on an n×n grid.
double gaussSeidel2d(double *u, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j)
        u[i * n + j] = 0.2 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                              u[i * n + j - 1] + u[i * n + j + 1]) +
                       0.1 * std::sin(u[i * n + j]);
  return weightedSum(u, n * n);
}

// Reads ahead with a stride: x[i + Ahead] is overwritten Ahead iterations
// later.
template <int Ahead> double readAhead(double *x, int n) {
  for (int i = 0; i + Ahead < n; ++i)
    x[i] = x[i] * std::cos(x[i + Ahead]) + 0.1 * x[i + Ahead] * x[i + Ahead];
  return weightedSum(x, n);
}

// Counts down and reads behind: x[i - 1] is overwritten in the next
// iteration.
double readBehindDescending(double *x, int n) {
  for (int i = n - 1; i >= 1; --i)
    x[i] = std::sin(x[i - 1]) * x[i] + 0.3 * x[i - 1];
  return weightedSum(x, n);
}

// A forward recurrence is right within one sweep; the next sweep (a count
// known only at run time) overwrites what this one read.
double repeatedSweeps(double *x, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 1; i < n; ++i)
      x[i] += 0.5 * std::sin(x[i - 1]);
  return weightedSum(x, n);
}

// A prefix scan in place, twice.
double scanTwice(double *x, int n) {
  for (int s = 0; s < 2; ++s)
    for (int i = 1; i < n; ++i)
      x[i] = x[i] + 0.5 * x[i - 1] * x[i - 1];
  return weightedSum(x, n);
}

// The branch condition x[i + 1] > 0.6 reads what iteration i + 1
// overwrites (and moves below the threshold).
double branchOnValueWrittenLater(double *x, int n) {
  for (int i = 0; i + 1 < n; ++i) {
    double v = x[i];
    if (x[i + 1] > 0.6)
      v = v * std::sin(x[i + 1]);
    x[i] = 0.5 * v + 0.05 * x[i + 1];
  }
  return weightedSum(x, n);
}

double switchOnValueWrittenLater(double *x, int n) {
  for (int i = 0; i + 1 < n; ++i) {
    double v = x[i];
    switch (static_cast<int>(x[i + 1] * 2)) {
    case 0:
      v = v * v;
      break;
    case 1:
      v = std::sin(v) * x[i + 1];
      break;
    case 2:
      v = std::exp(-v) + x[i + 1];
      break;
    default:
      v = 0.5 * v * x[i + 1];
      break;
    }
    x[i] = 0.4 * v;
  }
  return weightedSum(x, n);
}

// The kernels below change an integer array of the caller's; the checks
// give every evaluation a fresh copy.

// The inner trip count is read from counts[i + 1], which iteration i + 1
// overwrites: the reverse sweep must not take the new count.
double tripCountWrittenLater(double *x, int *counts, int n) {
  double s = 0.3;
  for (int i = 0; i + 1 < n; ++i) {
    int m = counts[i + 1];
    for (int j = 0; j < m; ++j)
      s = std::sin(s + x[i] * (j + 1));
    counts[i] = 2 * m + 1;
  }
  return s;
}

// The same where the later write makes the count 0: the inner loop's
// guard, tested again on overwritten memory, would skip its reverse.
double guardWrittenLater(double *x, int *counts, int n) {
  double s = 0.3;
  for (int i = 0; i + 1 < n; ++i) {
    int m = counts[i + 1];
    for (int j = 0; j < m; ++j)
      s = s * std::cos(x[i] + j) + x[j];
    counts[i] = 0;
  }
  return s;
}

// Gathers through an index array that the loop clears behind itself.
double gatherThenClear(double *x, int *index, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += std::sin(x[index[i]]) * (i + 1);
    if (i > 0)
      index[i - 1] = 0;
  }
  return s;
}

// Scatters through an index array that the next iteration rewrites.
double scatterThenRewrite(double *x, int *index, int n) {
  double y[16] = {};
  for (int i = 0; i < n; ++i) {
    y[index[i]] += std::cos(x[i]) * x[i];
    if (i > 0)
      index[i - 1] = (index[i - 1] + 1) % n;
  }
  return weightedSum(y, n);
}

// Tail recursion over an array: the optimizer turns it into a loop that
// reads x[i + 1] before the next step overwrites it.
double tailWalk(double *x, int i, int n, double acc) {
  if (i + 1 >= n)
    return acc + x[i];
  x[i] = x[i] * std::cos(x[i + 1]);
  return tailWalk(x, i + 1, n, acc + x[i] * x[i]);
}
double tailRecursion(double *x, int n) { return tailWalk(x, 0, n, 0.0); }

// A bulk copy into scratch memory and stores into it in the loop that
// reads it: the copy is not the only write to that memory.
double copyThenUpdate(double *x, int n) {
  double scratch[16];
  std::memcpy(scratch, x, sizeof(double) * n);
  for (int i = 0; i + 1 < n; ++i)
    scratch[i] = scratch[i] * std::sin(scratch[i + 1]);
  return weightedSum(scratch, n);
}

// The same, repeated: the copy runs again after the loads.
double copyThenUpdateRounds(double *x, int n, int rounds) {
  double scratch[16];
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
    std::memcpy(scratch, x, sizeof(double) * n);
    for (int i = 0; i + 1 < n; ++i)
      scratch[i] = scratch[i] * std::sin(scratch[i + 1]);
    for (int i = 0; i < n; ++i)
      x[i] = 0.5 * x[i] + 0.5 * scratch[i];
    s += scratch[0];
  }
  return s + weightedSum(x, n);
}

// A bulk copy whose length the optimizer specializes for one element (an
// i64 load and store of a double): the copy's type must still be known.
double copyOfScatteredData(const double *x, double *y, int n) {
  double acc = 0.1 * std::inner_product(x, x + n, y, 0.0);
  int index[8] = {5, 2, 7, 1, 0, 3, 6, 4};
  for (int i = 0; i < n; ++i) {
    y[index[i] % n] = 0.5 * y[index[i] % n] + 0.5 * std::sin(acc);
    if (i > 0)
      index[i - 1] = (index[i - 1] + 1) % 8;
  }
  double scratch[8];
  std::memcpy(scratch, y, n * sizeof(double));
  for (int i = 0; i + 1 < n; ++i)
    scratch[i] = std::tanh(scratch[i] * std::cos(scratch[i + 1]));
  for (int i = 0; i < n; ++i)
    acc += 0.3 * scratch[i];
  return acc;
}

// Walks the array with a pointer (an induction of the reverse sweep, and
// so is its shadow), each element updated from the one before it.
double pointerWalk(double *x, int n) {
  for (int round = 0; round < 2; ++round)
    for (double *p = x + 1; p != x + n; ++p)
      *p = *p * std::cos(p[-1]) + 0.1 * p[-1];
  return weightedSum(x, n);
}

// Cross products of corners the loop then moves: the difference of
// products is recomputed from the corners, which the products' partials
// read anyway; the corners themselves change later and are taped.
double crossProducts(double *x, int n) {
  double total = 0;
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k + 2 < n; ++k) {
      double area = x[k] * x[k + 2] - x[k + 1] * x[k + 1];
      x[k + 1] += 0.1 * std::sin(area);
      total += area * area;
    }
  return total + weightedSum(x, n);
}

// Gathers through indices while std::copy writes the gathered values back:
// a copy that assigns doubles cannot change the int indices (C++'s type
// rules), so the reverse sweep may load them again.
double gatherRounds(double *x, int *col, int n) {
  double y[8];
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < n; ++i)
      y[i] = std::sin(x[col[i]]) * x[i] + 0.5;
    std::copy(y, y + n, x);
  }
  return weightedSum(x, n);
}

// The same with a std::copy of ints that rotates the indices each round:
// that copy does change them, and the index of each round must be taped.
double gatherRoundsRotated(double *x, int *col, int n) {
  double y[8];
  int next[8];
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < n; ++i)
      y[i] = std::sin(x[col[i]]) * x[i] + 0.5;
    std::copy(y, y + n, x);
    for (int i = 0; i < n; ++i)
      next[i] = col[(i + 1) % n];
    std::copy(next, next + n, col);
  }
  return weightedSum(x, n);
}

/// F(x, ints, n) changes ints: reverse and forward mode against central
/// differences, each evaluation with a fresh copy of \p Ints.
template <auto F>
void expectGradientWithFreshInts(const std::vector<double> &X,
                                 const std::vector<int> &Ints) {
  int N = static_cast<int>(X.size());
  auto Eval = [&](double *Xs) {
    std::vector<int> Copy = Ints;
    return F(Xs, Copy.data(), N);
  };
  std::vector<double> Reference = check::arrayDifferences(Eval, X.data(), N);
  std::vector<double> Primal = X, Adjoint(N);
  std::vector<int> Copy = Ints;
  slope::grad<F>(slope::dup(Primal.data(), Adjoint.data()), Copy.data(), N);
  for (int I = 0; I < N; ++I) {
    EXPECT_TRUE(check::near(Adjoint[I], Reference[I], 1e-6, 1e-9))
        << "reverse, x[" << I << "]";
    std::vector<double> Tangent(N);
    Tangent[I] = 1;
    Primal = X;
    Copy = Ints;
    double Forward = slope::derivative<F>(
        slope::dup(Primal.data(), Tangent.data()), Copy.data(), N);
    EXPECT_TRUE(check::near(Forward, Reference[I], 1e-6, 1e-9))
        << "forward, x[" << I << "]";
  }
}

std::vector<double> inputs(int n) { return check::wave(n, 0.9); }

/// check_gradient of F(x, rest...) with x an array of \p N smooth inputs.
template <auto F, class... Rest>
void expectGradientOnInputs(int N, Rest... rest) {
  std::vector<double> X = inputs(N), DX(N);
  EXPECT_TRUE(slope::testing::check_gradient<F>(
      slope::dup(X.data(), DX.data(), N), rest...));
}

TEST(InPlace, GaussSeidelMatchesTheAnalyticGradient) {
  double x[6] = {0.9, 0.4, 1.3, 0.7, 1.1, 0.6}, dx[6] = {};
  slope::grad<gaussSeidel<double>>(slope::dup(x, dx), 6);
  // By hand: the sweep's Jacobian applied to the weights (1 + i/2).
  const double expected[6] = {1.96335, 0, 0.861946, 1.02446, 0.990735, 4.37445};
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(dx[i], expected[i], 1e-5) << "dx[" << i << "]";
}

TEST(InPlace, GaussSeidel) {
  expectGradientOnInputs<gaussSeidel<double>>(9, 9);
}

TEST(InPlace, GaussSeidelFloat) {
  std::vector<float> x = {0.9f, 0.4f, 1.3f, 0.7f, 1.1f, 0.6f}, dx(6);
  EXPECT_TRUE(slope::testing::check_gradient<gaussSeidel<float>>(
      slope::testing::Tolerance{2e-2, 1e-4}, slope::dup(x.data(), dx.data(), 6),
      6));
}

TEST(InPlace, GaussSeidelWithAnUnrelatedHeapBuffer) {
  expectGradientOnInputs<gaussSeidelWithScratch>(8, 8);
}

TEST(InPlace, GaussSeidelInVectorMode) {
  // The result is seeded with 1 in both lanes: each lane's adjoints are
  // the gradient.
  double x[6] = {0.9, 0.4, 1.3, 0.7, 1.1, 0.6}, d0[6] = {}, d1[6] = {};
  slope::grad<gaussSeidel<double>>(slope::dup(x, slope::lanes(d0, d1)), 6);
  const double expected[6] = {1.96335, 0, 0.861946, 1.02446, 0.990735, 4.37445};
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(d0[i], expected[i], 1e-5) << "lane 0, dx[" << i << "]";
    EXPECT_NEAR(d1[i], expected[i], 1e-5) << "lane 1, dx[" << i << "]";
  }
}

TEST(InPlace, ShiftedCosine) { expectGradientOnInputs<shiftedCosine>(7, 7); }

TEST(InPlace, GaussSeidel2d) {
  expectGradientOnInputs<gaussSeidel2d>(25, 5, 3);
}

TEST(InPlace, ReadAheadStrides) {
  expectGradientOnInputs<readAhead<1>>(10, 10);
  expectGradientOnInputs<readAhead<2>>(10, 10);
  expectGradientOnInputs<readAhead<3>>(10, 10);
}

TEST(InPlace, ReadBehindCountingDown) {
  expectGradientOnInputs<readBehindDescending>(8, 8);
}

TEST(InPlace, RepeatedSweepsOfAForwardRecurrence) {
  expectGradientOnInputs<repeatedSweeps>(8, 8, 3);
}

TEST(InPlace, ScanTwice) { expectGradientOnInputs<scanTwice>(6, 6); }

TEST(InPlace, BranchOnAValueALaterIterationOverwrites) {
  std::vector<double> x = {0.9, 0.65, 1.3, 0.62, 1.1, 0.7, 0.2}, dx(7);
  SLOPE_EXPECT_GRADIENT(branchOnValueWrittenLater,
                        slope::dup(x.data(), dx.data(), 7), 7);
}

TEST(InPlace, SwitchOnAValueALaterIterationOverwrites) {
  std::vector<double> x = {0.9, 0.65, 1.3, 0.62, 1.1, 1.7, 0.2}, dx(7);
  SLOPE_EXPECT_GRADIENT(switchOnValueWrittenLater,
                        slope::dup(x.data(), dx.data(), 7), 7);
}

TEST(InPlace, TripCountALaterIterationOverwrites) {
  expectGradientWithFreshInts<tripCountWrittenLater>(inputs(6),
                                                     {1, 2, 1, 3, 2, 1});
}

TEST(InPlace, LoopGuardALaterIterationOverwrites) {
  expectGradientWithFreshInts<guardWrittenLater>(inputs(6), {1, 2, 1, 3, 2, 1});
}

TEST(InPlace, GatherThroughAnIndexArrayTheLoopClears) {
  expectGradientWithFreshInts<gatherThenClear>(inputs(6), {3, 1, 4, 2, 5, 0});
}

TEST(InPlace, ScatterThroughAnIndexArrayTheLoopRewrites) {
  expectGradientWithFreshInts<scatterThenRewrite>(inputs(6),
                                                  {3, 1, 4, 2, 5, 0});
}

TEST(InPlace, PointerWalk) { expectGradientOnInputs<pointerWalk>(6, 6); }

TEST(InPlace, CrossProductsOfCornersMovedLater) {
  expectGradientOnInputs<crossProducts>(7, 7);
}

TEST(InPlace, IndicesPastACopyOfDoubles) {
  expectGradientWithFreshInts<gatherRounds>(inputs(6), {3, 1, 4, 2, 5, 0});
}

TEST(InPlace, IndicesACopyOfIntsRewrites) {
  expectGradientWithFreshInts<gatherRoundsRotated>(inputs(6),
                                                   {3, 1, 4, 2, 5, 0});
}

TEST(InPlace, TailRecursionOverAnArray) {
  expectGradientOnInputs<tailRecursion>(7, 7);
}

TEST(InPlace, BulkCopyAndStoresIntoTheSameMemory) {
  expectGradientOnInputs<copyThenUpdate>(6, 6);
  expectGradientOnInputs<copyThenUpdateRounds>(6, 6, 3);
}

TEST(InPlace, BulkCopyOfOneElementAsAnInteger) {
  for (int N : {1, 5}) {
    std::vector<double> X = inputs(N), DX(N), Y = check::wave(N, 0.7), DY(N);
    EXPECT_TRUE(slope::testing::check_gradient<copyOfScatteredData>(
        slope::dup(X.data(), DX.data(), N), slope::dup(Y.data(), DY.data(), N),
        N))
        << "n = " << N;
  }
}

} // namespace
