// Time loops whose steps read an array in one loop and overwrite it in
// another. Instead of taping every value the reading loop loads, the
// reverse sweep may copy what the writing loop overwrites where that loop
// starts (its pre-image), put it back where its reverse ends, and load the
// values again. Each kernel is checked against central differences in
// reverse and forward mode, and the arrays must hold, after the gradient,
// what a plain call leaves. Some kernels are built so that the pre-image
// would be wrong (a footprint that moves or shrinks from step to step, a
// conditional store, a load in the writing loop itself): they must still be
// right, taped.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

double weightedSum(const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (1 + 0.5 * i) * x[i];
  return r;
}

// Each step reads x through a stencil and a gather, then updates it in
// place in a loop of its own; y is written by the first loop and read by
// the second.
double explicitSteps(double *__restrict x, double *__restrict y, const int *idx,
                     int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i)
      y[i] = x[i - 1] * x[i + 1] + std::sin(x[idx[i]]);
    for (int i = 1; i + 1 < n; ++i)
      x[i] += 0.1 * y[i] * x[i];
  }
  return weightedSum(x, n);
}

// The update runs backwards.
double descendingUpdate(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i + 1 < n; ++i)
      t += x[i] * std::cos(x[i + 1]);
    for (int i = n - 1; i >= 0; --i)
      x[i] = 0.5 * std::sin(x[i]) + 0.01 * i + 0.2 * t;
  }
  return t + weightedSum(x, n);
}

// The update covers fewer elements every step: its footprint is not one
// range per call.
double shrinkingUpdate(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += x[i] * x[i];
    for (int i = 0; i < n - s; ++i)
      x[i] = std::cos(x[i]) + 0.1 * t;
  }
  return t;
}

// The update moves along the array every step.
double movingUpdate(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += std::sin(x[i]) * x[i];
    for (int i = 0; i + steps < n; ++i)
      x[i + s] = 0.9 * x[i + s] + 0.05 * t;
  }
  return t;
}

// Only some iterations store: the loop's footprint is not all written.
double conditionalUpdate(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += x[i] * x[(i + 1) % n];
    for (int i = 0; i < n; ++i)
      if (x[i] > 0.5)
        x[i] = 0.8 * x[i] + 0.1 * t;
  }
  return t;
}

// Two loops write the two halves of x; the gather before them reads both.
double halvesUpdate(double *x, const int *idx, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += std::sin(x[idx[i]]) * x[i];
    for (int i = 0; i < n / 2; ++i)
      x[i] = 0.7 * x[i] + 0.1 * t;
    for (int i = n / 2; i < n; ++i)
      x[i] = 0.6 * x[i] - 0.1 * t;
  }
  return t;
}

// The next step's reads come after a Gauss-Seidel update that reads what
// it writes.
double sweepsAfterReads(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += x[i] * x[i] * x[i];
    for (int i = 1; i < n; ++i)
      x[i] = 0.5 * x[i - 1] * x[i] + 0.1 * t;
  }
  return t;
}

// The reads feed branches of their loop: the reverse of those blocks loads
// them again too (no write falls within one iteration of the read loop).
double branchyReads(double *__restrict x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i) {
      double a = x[i - 1] * x[i + 1];
      if (a > 0.3)
        t += std::sin(a) * x[i];
      else
        t += std::exp(a) * x[i - 1];
    }
    for (int i = 0; i < n; ++i)
      x[i] = 0.9 * x[i] + 0.01 * t;
  }
  return t;
}

// A struct of vectors (a simulation's state): each vector's data pointer is
// loaded again in every iteration, so the update's footprint is computed
// from copies of those loads where the update loop starts.
struct Field {
  std::vector<double> x, v;
  double dt;
};

double fieldSteps(Field &f, int steps) {
  int n = int(f.x.size());
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i)
      f.v[i] += f.dt * (f.x[i - 1] - 2 * f.x[i] + f.x[i + 1]) * f.x[i];
    for (int i = 0; i < n; ++i)
      f.x[i] += f.dt * f.v[i];
  }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += f.x[i] * f.x[i] + f.v[i] * f.v[i];
  return e;
}

// An index array the step changes in place (pairs of neighbours swap, so
// an even number of steps leaves it as it was): the gather's indices are
// loaded again after the pre-image of an integer store is put back, and
// the addresses they make must be those of the step being reversed.
double swappingGather(double *x, int *idx, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      t += x[idx[i]] * x[i] * (1 + 0.1 * i);
    for (int i = 0; i < n; ++i)
      idx[i] ^= 1;
    for (int i = 0; i < n; ++i)
      x[i] = 0.8 * x[i] + 0.01 * t;
  }
  return t;
}

// A value loaded again is used in an inner loop of its own loop: its
// reverse there sees the memory of the same step.
double readIntoInnerLoop(double *x, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      double a = x[i];
      for (int k = 1; k < 4; ++k)
        t += std::sin(a * k) / k;
    }
    for (int i = n - 1; i >= 0; --i)
      x[i] = 0.7 * x[i] + 0.03 * t;
  }
  return t;
}

// Steps inside an outer loop, reads two elements apart.
double nestedTimeLoops(double *x, int n, int outer, int inner) {
  double t = 0;
  for (int o = 0; o < outer; ++o)
    for (int s = 0; s < inner; ++s) {
      for (int i = 0; i + 2 < n; i += 2)
        t += x[i] * std::cos(x[i + 2]);
      for (int i = 0; i < n; ++i)
        x[i] = x[i] * 0.95 + 0.02 * t * x[(i + 1) % n];
    }
  return t;
}

// Copies kept on the tape (a loop's store into x, a bulk copy into y)
// below frames that make the tape grow: it moves between a copy's push
// and its pop.
double growingTape(double *x, double *y, int n, int steps) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i)
      t += 0.01 * std::sin(x[i - 1] * y[i + 1]) / (1.5 + std::cos(x[i]));
    for (int i = 0; i < n; ++i)
      x[i] = 0.9 * x[i] + 0.05 * std::cos(y[i]) + 0.001 * t;
    std::copy(x, x + n, y);
  }
  return t;
}

std::vector<double> inputs(int n) { return check::wave(n, 0.9); }

/// check_gradient of F(x, rest...), and x after grad<F> as after F.
template <auto F, class... Rest> void expectRight(int N, Rest... rest) {
  std::vector<double> X = inputs(N), DX(N);
  EXPECT_TRUE(slope::testing::check_gradient<F>(
      slope::dup(X.data(), DX.data(), N), rest...));
  std::vector<double> Plain = inputs(N), Derived = inputs(N), Adjoint(N);
  F(Plain.data(), rest...);
  slope::grad<F>(slope::dup(Derived.data(), Adjoint.data()), rest...);
  // (Up to rounding: the derivative may contract a product and a sum
  // where the plain call does not.)
  for (int I = 0; I < N; ++I)
    EXPECT_NEAR(Derived[I], Plain[I], 1e-13 * std::fabs(Plain[I]))
        << "x[" << I << "] after the gradient";
}

TEST(LoopPreImages, StencilAndGatherBeforeAnInPlaceUpdate) {
  const int N = 9;
  std::vector<int> Idx = {4, 8, 0, 3, 7, 1, 6, 2, 5};
  std::vector<double> X = inputs(N), DX(N), Y(N), DY(N);
  EXPECT_TRUE(slope::testing::check_gradient<explicitSteps>(
      slope::dup(X.data(), DX.data(), N), slope::dup(Y.data(), DY.data(), N),
      Idx.data(), N, 4));
  std::vector<double> Plain = inputs(N), Derived = inputs(N), Adjoint(N);
  std::vector<double> PlainY(N), DerivedY(N), AdjointY(N);
  explicitSteps(Plain.data(), PlainY.data(), Idx.data(), N, 4);
  slope::grad<explicitSteps>(slope::dup(Derived.data(), Adjoint.data()),
                             slope::dup(DerivedY.data(), AdjointY.data()),
                             Idx.data(), N, 4);
  for (int I = 0; I < N; ++I) {
    EXPECT_NEAR(Derived[I], Plain[I], 1e-13 * std::fabs(Plain[I]));
    EXPECT_NEAR(DerivedY[I], PlainY[I], 1e-13 * std::fabs(PlainY[I]));
  }
}

TEST(LoopPreImages, StencilAndGatherInVectorMode) {
  const int N = 7;
  std::vector<int> Idx = {3, 6, 0, 2, 5, 1, 4};
  std::vector<double> X = inputs(N), Y(N), D0(N), D1(N), E0(N), E1(N);
  std::vector<double> Reference(N);
  {
    std::vector<double> Xs = inputs(N), Ys(N), DX(N), DY(N);
    slope::grad<explicitSteps>(slope::dup(Xs.data(), DX.data()),
                               slope::dup(Ys.data(), DY.data()), Idx.data(), N,
                               3);
    Reference = DX;
  }
  slope::grad<explicitSteps>(
      slope::dup(X.data(), slope::lanes(D0.data(), D1.data())),
      slope::dup(Y.data(), slope::lanes(E0.data(), E1.data())), Idx.data(), N,
      3);
  for (int I = 0; I < N; ++I) {
    EXPECT_NEAR(D0[I], Reference[I], 1e-12) << "lane 0, x[" << I << "]";
    EXPECT_NEAR(D1[I], Reference[I], 1e-12) << "lane 1, x[" << I << "]";
  }
}

TEST(LoopPreImages, DescendingUpdate) {
  expectRight<descendingUpdate>(7, 7, 3);
}

TEST(LoopPreImages, FootprintThatShrinks) {
  expectRight<shrinkingUpdate>(6, 6, 4);
}

TEST(LoopPreImages, FootprintThatMoves) { expectRight<movingUpdate>(8, 8, 3); }

TEST(LoopPreImages, ConditionalStores) {
  expectRight<conditionalUpdate>(7, 7, 3);
}

TEST(LoopPreImages, TwoLoopsWriteTheHalves) {
  const int N = 8;
  std::vector<int> Idx = {5, 2, 7, 0, 3, 6, 1, 4};
  expectRight<halvesUpdate>(N, Idx.data(), N, 3);
}

TEST(LoopPreImages, ReadsBeforeAGaussSeidelUpdate) {
  expectRight<sweepsAfterReads>(6, 6, 3);
}

TEST(LoopPreImages, ReadsUsedInBranches) { expectRight<branchyReads>(8, 8, 3); }

TEST(LoopPreImages, StructOfVectors) {
  const int N = 7, Steps = 4;
  Field Start{inputs(N), check::wave(N, 0.3), 0.2};
  Field F = Start, Shadow{std::vector<double>(N), std::vector<double>(N), 0};
  slope::grad<fieldSteps>(slope::dup(F, Shadow), Steps);
  Field Plain = Start;
  fieldSteps(Plain, Steps);
  for (int I = 0; I < N; ++I) {
    EXPECT_NEAR(F.x[I], Plain.x[I], 1e-13 * std::fabs(Plain.x[I]));
    auto OfX = [&](double *X) {
      Field G = Start;
      G.x.assign(X, X + N);
      return fieldSteps(G, Steps);
    };
    std::vector<double> Reference =
        check::arrayDifferences(OfX, Start.x.data(), N);
    EXPECT_TRUE(check::near(Shadow.x[I], Reference[I], 1e-6, 1e-9))
        << "reverse, x[" << I << "]";
    Field G = Start, Tangent{std::vector<double>(N), std::vector<double>(N), 0};
    Tangent.x[I] = 1;
    EXPECT_TRUE(check::near(
        slope::derivative<fieldSteps>(slope::dup(G, Tangent), Steps),
        Reference[I], 1e-6, 1e-9))
        << "forward, x[" << I << "]";
  }
}

TEST(LoopPreImages, GatherThroughAnIndexArrayTheStepChanges) {
  const int N = 8;
  std::vector<int> Idx = {3, 1, 4, 0, 6, 5, 2, 7};
  expectRight<swappingGather>(N, Idx.data(), N, 4);
  EXPECT_EQ(Idx, (std::vector<int>{3, 1, 4, 0, 6, 5, 2, 7}));
}

TEST(LoopPreImages, ReadUsedInAnInnerLoop) {
  expectRight<readIntoInnerLoop>(6, 6, 3);
}

TEST(LoopPreImages, NestedTimeLoops) {
  expectRight<nestedTimeLoops>(8, 8, 3, 3);
}

TEST(LoopPreImages, CopiesOnAGrowingTape) {
  const int N = 120, Steps = 12;
  std::vector<double> X = inputs(N), DX(N), Y = check::wave(N, 0.5), DY(N);
  EXPECT_TRUE(slope::testing::check_gradient<growingTape>(
      slope::dup(X.data(), DX.data(), N), slope::dup(Y.data(), DY.data(), N), N,
      Steps));
  // Twice in a row: the second gradient takes the tape buffer the first
  // one left to the thread.
  std::vector<double> First(N), Second(N);
  for (std::vector<double> *Adjoint : {&First, &Second}) {
    std::vector<double> Xs = inputs(N), Ys = check::wave(N, 0.5), DYs(N);
    slope::grad<growingTape>(slope::dup(Xs.data(), Adjoint->data()),
                             slope::dup(Ys.data(), DYs.data()), N, Steps);
  }
  EXPECT_EQ(First, Second);
}

TEST(LoopPreImages, NoStepsAtAll) {
  std::vector<double> X = inputs(5), DX(5);
  slope::grad<descendingUpdate>(slope::dup(X.data(), DX.data()), 5, 0);
  for (int I = 0; I < 5; ++I) {
    EXPECT_EQ(X[I], inputs(5)[I]);
    EXPECT_DOUBLE_EQ(DX[I], 1 + 0.5 * I);
  }
}

} // namespace
