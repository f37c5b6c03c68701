// Rows of a sparse matrix whose result is stored where later rows may read
// it: y[i] = Σ a[p]·x[col[p]] over row i, in place (x[i] = ...) or into a y
// that may overlap a and x. The reverse sweep does not tape every element
// the rows read: each row's store tapes what it overwrites, the reverse of
// that row puts it back, and the row's elements are loaded again. A bulk
// copy into x after the rows has its pre-image put back the same way, for
// loads of other arrays that it may overwrite.
//
// The kernels are called with arrays that really overlap, so a value
// loaded again from memory that was not put back (or put back at the wrong
// point) gives a wrong gradient: each is checked against central
// differences in reverse and forward mode, and the memory must hold, after
// the gradient, what a plain call leaves.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

/// A small pattern: n rows of three entries each, columns spread out.
struct Pattern {
  std::vector<int> RowStart, Columns;
  explicit Pattern(int N) {
    for (int I = 0; I < N; ++I) {
      RowStart.push_back(int(Columns.size()));
      for (int K = 0; K < 3; ++K)
        Columns.push_back((I * 2 + K * 3 + 1) % N);
    }
    RowStart.push_back(int(Columns.size()));
  }
  int entries() const { return int(Columns.size()); }
};

double weightedSum(const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (1 + 0.25 * i) * x[i];
  return r;
}

// A nonlinear Gauss-Seidel sweep: row i reads x through its columns (some
// already updated in this sweep, some not) and stores x[i].
double inPlaceRows(const double *a, const int *col, const int *rowStart, int n,
                   int sweeps, double *x) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i) {
      double acc = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        acc += a[p] * std::sin(x[col[p]]);
      x[i] = 0.5 * x[i] + 0.3 * acc;
    }
  return weightedSum(x, n);
}

// A chain of products into y, copied back into x; plain pointers.
double productChain(const double *a, const int *col, const int *rowStart, int n,
                    int products, double *x, double *y) {
  for (int k = 0; k < products; ++k) {
    for (int i = 0; i < n; ++i) {
      double acc = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        acc += a[p] * x[col[p]] * x[col[p]];
      y[i] = 0.4 * acc + 0.1;
    }
    std::copy(y, y + n, x);
  }
  return weightedSum(x, n);
}

// Only rows whose sum is large store: the store has no footprint of memory
// the program writes, so what the rows read is taped.
double someRowsStore(const double *a, const int *col, const int *rowStart,
                     int n, int sweeps, double *x) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i) {
      double acc = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        acc += a[p] * std::cos(x[col[p]]);
      if (acc > 0)
        x[i] = 0.6 * acc;
    }
  return weightedSum(x, n);
}

constexpr int N = 7, Steps = 3;

std::vector<double> entries(const Pattern &P) {
  return check::wave(P.entries(), 0.6);
}

TEST(RowPreImages, InPlaceSweep) {
  Pattern P(N);
  std::vector<double> A = entries(P), DA(A.size()), X = check::wave(N, 0.8),
                      DX(N);
  EXPECT_TRUE(slope::testing::check_gradient<inPlaceRows>(
      slope::dup(A.data(), DA.data(), A.size()), P.Columns.data(),
      P.RowStart.data(), N, Steps, slope::dup(X.data(), DX.data(), N)));
}

TEST(RowPreImages, ProductChain) {
  Pattern P(N);
  std::vector<double> A = entries(P), DA(A.size()), X = check::wave(N, 0.8),
                      DX(N), Y(N), DY(N);
  EXPECT_TRUE(slope::testing::check_gradient<productChain>(
      slope::dup(A.data(), DA.data(), A.size()), P.Columns.data(),
      P.RowStart.data(), N, Steps, slope::dup(X.data(), DX.data(), N),
      slope::dup(Y.data(), DY.data(), N)));
}

TEST(RowPreImages, RowsThatSometimesStore) {
  Pattern P(N);
  std::vector<double> A = entries(P), DA(A.size()), X = check::wave(N, 0.8),
                      DX(N);
  EXPECT_TRUE(slope::testing::check_gradient<someRowsStore>(
      slope::dup(A.data(), DA.data(), A.size()), P.Columns.data(),
      P.RowStart.data(), N, Steps, slope::dup(X.data(), DX.data(), N)));
}

// productChain with a, x and y views of one buffer: x and y apart, a over
// both, so the rows' stores into y and the copy into x overwrite entries
// of a that later rows and later products read.
constexpr int XAt = 2, YAt = XAt + N;

double overlapping(double *Buffer, const int *col, const int *rowStart) {
  return productChain(Buffer, col, rowStart, N, Steps, Buffer + XAt,
                      Buffer + YAt);
}

std::vector<double> bufferFor(const Pattern &P) {
  return check::wave(std::max(P.entries(), YAt + N), 0.7);
}

TEST(RowPreImages, ArraysThatOverlapReverse) {
  Pattern P(N);
  const std::vector<double> Start = bufferFor(P);
  int Size = int(Start.size());
  std::vector<double> Buffer = Start, Adjoint(Size);
  double *B = Buffer.data(), *D = Adjoint.data();
  slope::grad<productChain>(
      slope::dup(B, D), P.Columns.data(), P.RowStart.data(), N, Steps,
      slope::dup(B + XAt, D + XAt), slope::dup(B + YAt, D + YAt));
  std::vector<double> Plain = Start;
  overlapping(Plain.data(), P.Columns.data(), P.RowStart.data());
  std::vector<double> Reference = check::arrayDifferences(
      [&](double *Copy) {
        return overlapping(Copy, P.Columns.data(), P.RowStart.data());
      },
      Start.data(), Size);
  for (int I = 0; I < Size; ++I) {
    EXPECT_TRUE(check::near(Adjoint[I], Reference[I], 1e-6, 1e-9))
        << "buffer[" << I << "]";
    EXPECT_NEAR(Buffer[I], Plain[I], 1e-13 * std::fabs(Plain[I]))
        << "buffer[" << I << "] after the gradient";
  }
}

TEST(RowPreImages, ArraysThatOverlapForward) {
  Pattern P(N);
  const std::vector<double> Start = bufferFor(P);
  int Size = int(Start.size());
  std::vector<double> Reference = check::arrayDifferences(
      [&](double *Copy) {
        return overlapping(Copy, P.Columns.data(), P.RowStart.data());
      },
      Start.data(), Size);
  for (int I = 0; I < Size; ++I) {
    std::vector<double> Buffer = Start, Tangent(Size);
    Tangent[I] = 1;
    double *B = Buffer.data(), *T = Tangent.data();
    double Derivative = slope::derivative<productChain>(
        slope::dup(B, T), P.Columns.data(), P.RowStart.data(), N, Steps,
        slope::dup(B + XAt, T + XAt), slope::dup(B + YAt, T + YAt));
    EXPECT_TRUE(check::near(Derivative, Reference[I], 1e-6, 1e-9))
        << "buffer[" << I << "]";
  }
}

// The in-place sweep with a over x: row i's store changes entries of a
// that later rows multiply by.
TEST(RowPreImages, InPlaceSweepOverItsEntries) {
  Pattern P(N);
  const std::vector<double> Start = check::wave(P.entries() + 1, 0.5);
  int Size = int(Start.size());
  auto Sweep = [&](double *Buffer) {
    return inPlaceRows(Buffer, P.Columns.data(), P.RowStart.data(), N, Steps,
                       Buffer + 1);
  };
  std::vector<double> Buffer = Start, Adjoint(Size);
  slope::grad<inPlaceRows>(slope::dup(Buffer.data(), Adjoint.data()),
                           P.Columns.data(), P.RowStart.data(), N, Steps,
                           slope::dup(Buffer.data() + 1, Adjoint.data() + 1));
  std::vector<double> Plain = Start;
  Sweep(Plain.data());
  std::vector<double> Reference =
      check::arrayDifferences(Sweep, Start.data(), Size);
  for (int I = 0; I < Size; ++I) {
    EXPECT_TRUE(check::near(Adjoint[I], Reference[I], 1e-6, 1e-9))
        << "buffer[" << I << "]";
    EXPECT_NEAR(Buffer[I], Plain[I], 1e-13 * std::fabs(Plain[I]))
        << "buffer[" << I << "] after the gradient";
  }
}

} // namespace
