// Extents: when every pointer argument comes with its extent
// (slope::dup(x, dx, n), slope::constant(p, n)), Slope also builds a
// derivative that treats the pointers as restrict and calls it when the
// extents do not overlap at run time. Whichever runs, the gradient is the
// function's as the caller called it.
#include "Check.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// y = A^K x through a sparse matrix in CSR form; J = ½‖x‖².
double csrChain(const double *values, const int *columns, const int *rowStart,
                int n, int products, double *x, double *y) {
  for (int k = 0; k < products; ++k) {
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        s += values[p] * std::sin(x[columns[p]]);
      y[i] = s;
    }
    std::copy(y, y + n, x);
  }
  double j = 0;
  for (int i = 0; i < n; ++i)
    j += x[i] * x[i];
  return 0.5 * j;
}

// in holds n + 1 values; called in place (out == in), each step reads what
// the previous one wrote.
double smooth(const double *in, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = in[i] * std::sin(in[i + 1]);
    s += out[i] * in[i];
  }
  return s;
}

// Writes memory it does not reach through a parameter; a caller may pass
// that same memory as `x`, which is then overwritten after it is read.
double Scratch[8];
double throughGlobal(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = std::sin(x[i]);
    Scratch[i] = 0.5;
    s += y[i];
  }
  return s;
}

struct Csr {
  std::vector<int> RowStart, Columns;
  std::vector<double> Values;
};

Csr band(int N) {
  Csr A;
  for (int I = 0; I < N; ++I) {
    A.RowStart.push_back(static_cast<int>(A.Columns.size()));
    for (int P = 0; P < 3; ++P) {
      A.Columns.push_back((I + 2 * P) % N);
      A.Values.push_back(0.4 + 0.1 * std::cos(I + 3 * P));
    }
  }
  A.RowStart.push_back(static_cast<int>(A.Columns.size()));
  return A;
}

using check::wave;

void expectAllNear(const std::vector<double> &Actual,
                   const std::vector<double> &Expected) {
  ASSERT_EQ(Actual.size(), Expected.size());
  for (size_t I = 0; I < Actual.size(); ++I)
    EXPECT_TRUE(check::near(Actual[I], Expected[I], 1e-6, 1e-9)) << "at " << I;
}

TEST(Extents, SparseChainWithEveryExtentGiven) {
  const int N = 8, Products = 3;
  Csr A = band(N);
  const int Nnz = static_cast<int>(A.Values.size());
  const std::vector<double> X0 = wave(N, 0.8);
  auto Objective = [&](const double *Values, const double *XStart) {
    std::vector<double> X(XStart, XStart + N), Y(N);
    return csrChain(Values, A.Columns.data(), A.RowStart.data(), N, Products,
                    X.data(), Y.data());
  };
  std::vector<double> X = X0, Y(N), DValues(Nnz), DX(N), DY(N);
  double J = slope::value_and_grad<csrChain>(
                 slope::dup(A.Values.data(), DValues.data(), Nnz),
                 slope::constant(A.Columns.data(), Nnz),
                 slope::constant(A.RowStart.data(), N + 1), N, Products,
                 slope::dup(X.data(), DX.data(), N),
                 slope::dup(Y.data(), DY.data(), N))
                 .value;
  EXPECT_DOUBLE_EQ(J, Objective(A.Values.data(), X0.data()));
  // The primal's effects: x and y hold what the plain call leaves.
  std::vector<double> PlainX = X0, PlainY(N);
  csrChain(A.Values.data(), A.Columns.data(), A.RowStart.data(), N, Products,
           PlainX.data(), PlainY.data());
  EXPECT_EQ(X, PlainX);
  EXPECT_EQ(Y, PlainY);
  expectAllNear(DValues,
                check::arrayDifferences(
                    [&](const double *V) { return Objective(V, X0.data()); },
                    A.Values.data(), Nnz));
  expectAllNear(
      DX, check::arrayDifferences(
              [&](const double *XS) { return Objective(A.Values.data(), XS); },
              X0.data(), N));
}

// The same buffer as input and output, with both extents given: they
// overlap, so the derivative for disjoint arguments must not run.
TEST(Extents, OverlappingArgumentsTakeThePlainDerivative) {
  const int N = 7;
  const std::vector<double> B0 = wave(N + 1, 1.2);
  std::vector<double> B = B0, DB(N + 1);
  double S =
      slope::value_and_grad<smooth>(slope::dup(B.data(), DB.data(), N + 1),
                                    slope::dup(B.data(), DB.data(), N), N)
          .value;
  auto InPlace = [&](const double *Start) {
    std::vector<double> Copy(Start, Start + N + 1);
    return smooth(Copy.data(), Copy.data(), N);
  };
  EXPECT_DOUBLE_EQ(S, InPlace(B0.data()));
  expectAllNear(DB, check::arrayDifferences(InPlace, B0.data(), N + 1));
}

// Apart, the same function takes the derivative for disjoint arguments.
TEST(Extents, SeparateArgumentsOfAnInPlaceKernel) {
  const int N = 7;
  const std::vector<double> In0 = wave(N + 1, 1.2);
  std::vector<double> In = In0, Out(N), DIn(N + 1), DOut(N);
  slope::grad<smooth>(slope::dup(In.data(), DIn.data(), N + 1),
                      slope::dup(Out.data(), DOut.data(), N), N);
  auto Apart = [&](const double *Start) {
    std::vector<double> Result(N);
    return smooth(Start, Result.data(), N);
  };
  expectAllNear(DIn, check::arrayDifferences(Apart, In0.data(), N + 1));
}

// Two lanes, each with its own shadows, all apart.
TEST(Extents, SeparateArgumentsInEveryLane) {
  const int N = 7;
  const std::vector<double> In0 = wave(N + 1, 1.2);
  std::vector<double> In = In0, Out(N), DIn0(N + 1), DIn1(N + 1), DOut0(N),
                      DOut1(N);
  std::vector<double> Seed1 = wave(N, 0.5);
  // Lane 1 also seeds the outputs: its gradient is that of s + Σ w·out.
  DOut1 = Seed1;
  slope::grad<smooth>(
      slope::dup(In.data(), slope::lanes(DIn0.data(), DIn1.data()), N + 1),
      slope::dup(Out.data(), slope::lanes(DOut0.data(), DOut1.data()), N), N);
  auto Apart = [&](const double *Start) {
    std::vector<double> Result(N);
    return smooth(Start, Result.data(), N);
  };
  auto Seeded = [&](const double *Start) {
    std::vector<double> Result(N);
    double S = smooth(Start, Result.data(), N);
    for (int I = 0; I < N; ++I)
      S += Seed1[I] * Result[I];
    return S;
  };
  expectAllNear(DIn0, check::arrayDifferences(Apart, In0.data(), N + 1));
  expectAllNear(DIn1, check::arrayDifferences(Seeded, In0.data(), N + 1));
}

// out[i] = a[i]·b[i]: a and b are only read, so they may be one array
// (with one shadow) and the derivative for disjoint arguments still runs.
double products(const double *a, const double *b, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = a[i] * std::sin(b[i]);
    s += out[i];
  }
  return s;
}

TEST(Extents, OneArrayForTwoReadOnlyArguments) {
  const int N = 6;
  const std::vector<double> X0 = wave(N, 1.1);
  std::vector<double> X = X0, Out(N), DX(N), DOut(N);
  slope::grad<products>(slope::dup(X.data(), DX.data(), N),
                        slope::dup(X.data(), DX.data(), N),
                        slope::dup(Out.data(), DOut.data(), N), N);
  auto Same = [&](const double *Start) {
    std::vector<double> O(N);
    return products(Start, Start, O.data(), N);
  };
  expectAllNear(DX, check::arrayDifferences(Same, X0.data(), N));
}

// Memory written other than through a parameter (a global the caller
// also passes as x) rules the derivative for disjoint arguments out: it
// would read x again after the global's store overwrote it.
TEST(Extents, AGlobalPassedAsAnArgument) {
  const int N = 6;
  const std::vector<double> X0 = wave(N, 1.3);
  std::copy(X0.begin(), X0.end(), Scratch);
  std::vector<double> Y(N), DX(N), DY(N);
  slope::grad<throughGlobal>(slope::dup(Scratch + 0, DX.data(), N),
                             slope::dup(Y.data(), DY.data(), N), N);
  auto Objective = [&](const double *Start) {
    std::copy(Start, Start + N, Scratch);
    std::vector<double> YS(N);
    return throughGlobal(Scratch, YS.data(), N);
  };
  expectAllNear(DX, check::arrayDifferences(Objective, X0.data(), N));
}

} // namespace
