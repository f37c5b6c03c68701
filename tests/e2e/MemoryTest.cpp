// Memory shapes: arrays of structs mixing integer and floating-point
// fields, stack arrays, new[]/delete[], calloc, aligned_alloc and aligned
// new[], memcpy/memset, and a pointer-to-pointer matrix whose shadow rows
// the caller provides.
#include "Check.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Particle {
  double x;
  int id;
  double v;
};

double kernel(const Particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += 0.5 * p[i].v * p[i].v * (1 + p[i].id % 3) + std::cos(p[i].x);
  return e;
}

double stackArray(const double *x, int n) {
  double buffer[16];
  for (int i = 0; i < 16; ++i)
    buffer[i] = 0;
  for (int i = 0; i < n; ++i)
    buffer[(3 * i) % 16] += x[i] * x[i];
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += std::sin(buffer[i]);
  return s;
}

// At -O2 the malloc is made in each of two paths (whether the first loop
// ran) and one free takes whichever was made; on one path nothing writes
// the buffer.
double scratchAfterLoop(const double *x, int n) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc += 0.25 * x[i];
  double *h = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int i = 0; i < n; ++i)
    h[i] = std::tanh(x[i]);
  for (int i = 0; i < n; ++i)
    acc += h[i] * x[i];
  std::free(h);
  return acc;
}

// Over-aligned scratch: aligned_alloc, and new[] of an alignas(64) type
// (operator new with std::align_val_t). The shadows are aligned alike.
struct alignas(64) Lane {
  double v[8];
};
double alignedScratch(const double *x, int n) {
  std::size_t bytes = 64 * ((n * sizeof(double) + 63) / 64);
  double *squares = static_cast<double *>(std::aligned_alloc(64, bytes));
  Lane *lanes = new Lane[(n + 7) / 8];
  for (int i = 0; i < n; ++i) {
    squares[i] = x[i] * x[i];
    lanes[i / 8].v[i % 8] = std::sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::log1p(squares[i]) * lanes[i / 8].v[i % 8];
  std::free(squares);
  delete[] lanes;
  return s;
}

// Variable-length arrays (a clang extension in C++), one per call and one
// per loop iteration: their stack space is given back before the reverse
// sweep runs.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wvla-cxx-extension"
double variableLength(const double *x, int n) {
  double squares[n];
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    double row[k * n];
    for (int i = 0; i < k * n; ++i)
      row[i] = std::sin(squares[i % n] * k);
    for (int i = 0; i < k * n; ++i)
      s += row[i] * x[(i + k) % n];
  }
  return s;
}

// In place in a variable-length array: Gauss-Seidel sweeps read x[i - 1]
// (written this sweep) and x[i + 1] (written later), twice over.
double sweptInPlace(const double *x, int n) {
  double u[n];
  for (int i = 0; i < n; ++i)
    u[i] = x[i];
  for (int sweep = 0; sweep < 2; ++sweep)
    for (int i = 1; i + 1 < n; ++i)
      u[i] = 0.25 * (u[i - 1] + u[i + 1]) + 0.1 * u[i - 1] * u[i + 1];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (1 + 0.5 * i) * u[i];
  return r;
}
#pragma clang diagnostic pop

double heapScratch(const double *x, int n) {
  double *squares = new double[n];
  double *cumulative = static_cast<double *>(std::calloc(n, sizeof(double)));
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  double running = 0;
  for (int i = 0; i < n; ++i) {
    running += squares[i];
    cumulative[i] = running;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::log1p(cumulative[i]);
  delete[] squares;
  std::free(cumulative);
  return s;
}

double copiesAndClears(const double *x, int n) {
  double *copy = static_cast<double *>(std::malloc(n * sizeof(double)));
  std::memcpy(copy, x, n * sizeof(double));
  std::memset(copy, 0, 2 * sizeof(double)); // the first two stop mattering
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += copy[i] * (i + 1);
  std::free(copy);
  return s;
}

// A buffer grown with realloc as values arrive, as containers do.
double growingBuffer(const double *x, int n) {
  int capacity = 1, length = 0;
  double *buffer = static_cast<double *>(std::malloc(sizeof(double)));
  for (int i = 0; i < n; ++i) {
    if (length == capacity) {
      capacity *= 2;
      buffer = static_cast<double *>(
          std::realloc(buffer, capacity * sizeof(double)));
    }
    buffer[length++] = std::sin(x[i]) * x[i];
  }
  double s = 0;
  for (int i = 0; i < length; ++i)
    s += buffer[i] * buffer[i];
  std::free(buffer);
  return s;
}

struct Pair {
  double a, b;
};

// Whole-struct copies become memcpy or integer moves at -O2; the declared
// pointee types tell Slope the bytes are doubles.
void copyPairs(const Pair *in, Pair *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i];
}

void copyBits(const double *x, double *y) {
  std::uint64_t bits;
  std::memcpy(&bits, x, sizeof bits);
  std::memcpy(y, &bits, sizeof bits);
}

double frobenius(double **rows, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += rows[i][j] * rows[i][j] * (i + 1);
  return s;
}

/// Writes through `out` while reading `in`: called with out == in, later
/// reads see earlier writes, so the reverse sweep must not read `in` again.
double squaresInto(const double *in, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double v = in[i];
    out[n - 1 - i] = 2 * v + 0.5;
    s += v * v * v;
  }
  return s;
}

/// Restrict-qualified: the reverse sweep reads `in` again instead of taping
/// it, although the function writes through `out`.
double scaledCopy(const double *__restrict in, double *__restrict out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = in[i] * in[(i + 1) % n];
    s += std::sin(in[i]) * out[i];
  }
  return s;
}

/// Rows of a CSR-like layout: at -O2 the row's start is the previous row's
/// end, carried by a phi, which the reverse sweep reads again from `start`.
double rowWeightedSquares(const double *__restrict v,
                          const int *__restrict start, int rows) {
  double s = 0;
  for (int i = 0; i < rows; ++i)
    for (int p = start[i]; p < start[i + 1]; ++p)
      s += std::sin(v[p]) * v[p] * (i + 1);
  return s;
}

/// Recursive, so not inlined: its derivative is split around the call,
/// and the caller overwrites what it read before its reverse part runs.
double cubes(const double *x, int n) {
  if (n <= 0)
    return 0;
  int m = n < 3 ? n : 3;
  double s = 0;
  for (int i = 0; i < m; ++i)
    s += x[i] * x[i] * x[i];
  return s + cubes(x + m, n - m);
}

double cubesThenOverwrite(double *x, int n) {
  double s = cubes(x, n);
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(x[i]) * s;
  return s + cubes(x, n);
}

// Row r sums sin over its len[r] entries when len[r] > 0, then clears
// len[r] and doubles the row's first entry: the guard reads memory the loop
// overwrites, so the reverse sweep cannot recompute which way it went.
double clearedRows(double *x, int *len, int rows, int width) {
  double s = 0;
  for (int r = 0; r < rows; ++r) {
    if (len[r] > 0)
      for (int c = 0; c < len[r]; ++c)
        s += std::sin(x[r * width + c]) * (c + 1) * x[r * width];
    len[r] = 0;
    x[r * width] *= 2;
  }
  for (int i = 0; i < rows * width; ++i)
    s += x[i] * x[i];
  return s;
}

// x is read through gathers and overwritten only by a copy at the end of
// each round: the reverse sweep reads the gathers from the copies'
// pre-images. `half` copies only the first half of y into x, so that
// gathers from the second half read memory no copy covered.
double roundsOfGathers(const double *__restrict a, double *__restrict x,
                       double *__restrict y, int n, int rounds, bool half) {
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < n; ++i)
      y[i] = std::sin(x[(3 * i + r) % n]) * a[i] + x[i] * x[(i + 1) % n];
    std::memcpy(x, y, (half ? n / 2 : n) * sizeof(double));
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * a[i];
  return s;
}

// The copy comes first in each round, the gathers after it.
double copyThenGather(const double *__restrict a, double *__restrict x,
                      double *__restrict y, int n, int rounds) {
  double s = 0;
  for (int r = 0; r < rounds; ++r) {
    std::memcpy(x, y, n * sizeof(double));
    for (int i = 0; i < n; ++i) {
      double g = x[n - 1 - i];
      s += g * g * a[i];
      y[i] = std::cos(g) + a[i];
    }
  }
  return s;
}

using check::wave;

/// Central differences of F over each component of X.
template <class F> std::vector<double> fdGradient(std::vector<double> X, F f) {
  std::vector<double> G(X.size());
  for (size_t I = 0; I < X.size(); ++I) {
    double Saved = X[I], H = 1e-6 * std::max(1.0, std::fabs(Saved));
    X[I] = Saved + H;
    double Up = f(X);
    X[I] = Saved - H;
    double Down = f(X);
    X[I] = Saved;
    G[I] = (Up - Down) / (2 * H);
  }
  return G;
}

void expectNear(const std::vector<double> &A, const std::vector<double> &B,
                double Tol) {
  ASSERT_EQ(A.size(), B.size());
  for (size_t I = 0; I < A.size(); ++I)
    EXPECT_NEAR(A[I], B[I], Tol * std::max(1.0, std::fabs(B[I])))
        << "component " << I;
}

double dotWithDirection(const std::vector<double> &G) {
  double S = 0;
  for (size_t I = 0; I < G.size(); ++I)
    S += G[I] * std::sin(1.3 * I + 0.4);
  return S;
}

std::vector<double> direction(size_t N) {
  std::vector<double> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = std::sin(1.3 * I + 0.4);
  return V;
}

/// Reverse against finite differences and forward against reverse, for a
/// function of one array of doubles.
template <auto F> void checkArrayFunction(int N) {
  std::vector<double> X = wave(N, 0.8), DX(N, 0.0);
  slope::grad<F>(slope::dup(X.data(), DX.data()), N);
  auto Ref =
      fdGradient(X, [&](std::vector<double> &Y) { return F(Y.data(), N); });
  expectNear(DX, Ref, 1e-6);
  std::vector<double> V = direction(N);
  double Tangent = slope::derivative<F>(slope::dup(X.data(), V.data()), N);
  EXPECT_NEAR(Tangent, dotWithDirection(DX),
              1e-10 * std::max(1.0, std::fabs(Tangent)));
}

TEST(Memory, ArrayOfStructsWithIntegerFields) {
  const int N = 5;
  std::vector<Particle> P(N), DP(N);
  for (int I = 0; I < N; ++I) {
    P[I] = {0.3 * I, I, 1.0 - 0.2 * I};
    DP[I] = {0.0, -7, 0.0}; // integer fields of the shadow are left alone
  }
  slope::grad<kernel>(slope::dup(P.data(), DP.data()), N);
  for (int I = 0; I < N; ++I) {
    EXPECT_NEAR(DP[I].x, -std::sin(P[I].x), 1e-14);
    EXPECT_NEAR(DP[I].v, P[I].v * (1 + I % 3), 1e-14);
    EXPECT_EQ(DP[I].id, -7);
  }
  std::vector<Particle> T(N);
  for (int I = 0; I < N; ++I)
    T[I] = {std::sin(1.0 * I), 0, std::cos(1.0 * I)};
  double Tangent = slope::derivative<kernel>(slope::dup(P.data(), T.data()), N);
  double Expected = 0;
  for (int I = 0; I < N; ++I)
    Expected += DP[I].x * T[I].x + DP[I].v * T[I].v;
  EXPECT_NEAR(Tangent, Expected, 1e-12);
}

TEST(Memory, StackArrayWithDynamicIndices) {
  checkArrayFunction<stackArray>(11);
}

TEST(Memory, NewArrayAndCalloc) { checkArrayFunction<heapScratch>(9); }

TEST(Memory, AlignedAllocations) { checkArrayFunction<alignedScratch>(11); }

// Zeroed scratch read before it is written: its shadow still holds the
// first loop's adjoints when it is freed.
double readBeforeWritten(const double *x, int n) {
  double *z = static_cast<double *>(std::calloc(n, sizeof(double)));
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += z[i] * x[i];
  for (int i = 0; i < n; ++i)
    z[i] = x[i] * x[i];
  for (int i = 0; i < n; ++i)
    s += std::sin(z[i]);
  std::free(z);
  return s;
}

// Each thread keeps the blocks of freed heap shadows for later gradients
// (ShadowCache.h): a kept block serves a shadow of the same or a somewhat
// smaller size, zeroed again. Every gradient equals the one a fresh thread
// computes (no kept blocks there), to the last bit.
TEST(Memory, ShadowBlocksKeptBetweenGradients) {
  auto Gradient = [](int N) {
    std::vector<double> X = wave(N, 0.8), DX(N, 0.0);
    slope::grad<readBeforeWritten>(slope::dup(X.data(), DX.data()), N);
    slope::grad<heapScratch>(slope::dup(X.data(), DX.data()), N);
    return DX;
  };
  const int Sizes[] = {200, 150, 120, 200, 90, 300, 7, 200};
  std::vector<std::vector<double>> Fresh;
  for (int N : Sizes)
    std::thread([&] { Fresh.push_back(Gradient(N)); }).join();
  for (int Round = 0; Round < 2; ++Round)
    for (size_t I = 0; I < std::size(Sizes); ++I)
      EXPECT_EQ(Gradient(Sizes[I]), Fresh[I])
          << "n = " << Sizes[I] << ", round " << Round;
  std::vector<double> X = wave(120, 0.8);
  expectNear(Fresh[2],
             fdGradient(X,
                        [](std::vector<double> &Y) {
                          return readBeforeWritten(Y.data(), 120) +
                                 heapScratch(Y.data(), 120);
                        }),
             1e-6);
}

TEST(Memory, VariableLengthArrays) { checkArrayFunction<variableLength>(6); }

TEST(Memory, VariableLengthArraySweptInPlace) {
  checkArrayFunction<sweptInPlace>(7);
}

TEST(Memory, OneFreeOfAllocationsMadeOnTwoPaths) {
  for (int N : {0, 1, 6})
    checkArrayFunction<scratchAfterLoop>(N);
}

TEST(Memory, MemcpyAndMemset) { checkArrayFunction<copiesAndClears>(7); }

TEST(Memory, ReallocGrowth) { checkArrayFunction<growingBuffer>(11); }

TEST(Memory, StructCopiesCarryAdjoints) {
  Pair In[3] = {{1, 2}, {3, 4}, {5, 6}}, DIn[3] = {}, Out[3];
  Pair DOut[3] = {{1, 10}, {2, 20}, {3, 30}};
  slope::grad<copyPairs>(slope::dup(In, DIn), slope::dup(Out, DOut), 3);
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(DIn[I].a, I + 1.0);
    EXPECT_EQ(DIn[I].b, 10.0 * (I + 1));
    EXPECT_EQ(DOut[I].a, 0.0);
    EXPECT_EQ(Out[I].b, In[I].b);
  }
  Pair TIn[3] = {{1, -1}, {2, -2}, {3, -3}}, TOut[3] = {};
  slope::derivative<copyPairs>(slope::dup(In, TIn), slope::dup(Out, TOut), 3);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(TOut[I].b, TIn[I].b);

  double X = 2, DX = 0.5, Y = 0, DY = 5;
  slope::grad<copyBits>(slope::dup(&X, &DX), slope::dup(&Y, &DY));
  EXPECT_EQ(DX, 5.5);
  EXPECT_EQ(DY, 0.0);
  double TX = 1, TY = 0;
  slope::derivative<copyBits>(slope::dup(&X, &TX), slope::dup(&Y, &TY));
  EXPECT_EQ(TY, 1.0);
}

TEST(Memory, PointerToPointerMatrix) {
  const int N = 3, M = 4;
  std::vector<std::vector<double>> Rows(N), Shadows(N);
  std::vector<double *> RowPtrs(N), ShadowPtrs(N);
  for (int I = 0; I < N; ++I) {
    Rows[I] = wave(M, 1.0 + I);
    Shadows[I].assign(M, 0.0);
    RowPtrs[I] = Rows[I].data();
    ShadowPtrs[I] = Shadows[I].data();
  }
  slope::grad<frobenius>(slope::dup(RowPtrs.data(), ShadowPtrs.data()), N, M);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      EXPECT_DOUBLE_EQ(Shadows[I][J], 2 * Rows[I][J] * (I + 1));
  for (int I = 0; I < N; ++I)
    Shadows[I].assign(M, 1.0); // now tangents
  double Tangent = slope::derivative<frobenius>(
      slope::dup(RowPtrs.data(), ShadowPtrs.data()), N, M);
  double Expected = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      Expected += 2 * Rows[I][J] * (I + 1);
  EXPECT_NEAR(Tangent, Expected, 1e-12);
}

} // namespace

TEST(Memory, ReadOnlyInputsWithWritableShadows) {
  const std::vector<double> X = wave(5, 0.8);
  std::vector<double> DX(5, 0.0), Ref(5, 0.0);
  std::vector<double> Copy = X;
  // dup(const double *, double *): the shadow of a read-only input.
  slope::grad<stackArray>(slope::dup(X.data(), DX.data()), 5);
  slope::grad<stackArray>(slope::dup(Copy.data(), Ref.data()), 5);
  EXPECT_EQ(DX, Ref);
  std::vector<double> V = direction(5);
  EXPECT_EQ(
      slope::derivative<stackArray>(slope::dup(X.data(), V.data()), 5),
      slope::derivative<stackArray>(slope::dup(Copy.data(), V.data()), 5));
}

TEST(Memory, InputOverwrittenThroughAnAliasingOutput) {
  const int N = 9;
  const std::vector<double> X = wave(N, 0.8);
  std::vector<double> Y = X, DY(N, 0.0);
  slope::grad<squaresInto>(slope::dup(Y.data(), DY.data()),
                           slope::dup(Y.data(), DY.data()), N);
  auto Ref = fdGradient(X, [&](std::vector<double> &Z) {
    std::vector<double> Copy = Z;
    return squaresInto(Copy.data(), Copy.data(), N);
  });
  expectNear(DY, Ref, 1e-6);
  // Distinct buffers: the plain gradient of sum(in[i]^3).
  std::vector<double> In = X, Out(N), DIn(N, 0.0), DOut(N, 0.0);
  slope::grad<squaresInto>(slope::dup(In.data(), DIn.data()),
                           slope::dup(Out.data(), DOut.data()), N);
  for (int I = 0; I < N; ++I)
    EXPECT_NEAR(DIn[I], 3 * X[I] * X[I], 1e-12);
}

TEST(Memory, CalleeInputOverwrittenBeforeItsReversePart) {
  const int N = 7;
  const std::vector<double> X = wave(N, 0.8);
  std::vector<double> Y = X, DY(N, 0.0);
  slope::grad<cubesThenOverwrite>(slope::dup(Y.data(), DY.data()), N);
  auto Ref = fdGradient(X, [&](std::vector<double> &Z) {
    std::vector<double> Copy = Z;
    return cubesThenOverwrite(Copy.data(), N);
  });
  expectNear(DY, Ref, 1e-6);
}

TEST(Memory, RestrictQualifiedInputReadAgain) {
  const int N = 8;
  const std::vector<double> X = wave(N, 0.9);
  std::vector<double> In = X, DIn(N, 0.0), Out(N), DOut(N, 0.0);
  slope::grad<scaledCopy>(slope::dup(In.data(), DIn.data()),
                          slope::dup(Out.data(), DOut.data()), N);
  auto Ref = fdGradient(X, [&](std::vector<double> &Z) {
    std::vector<double> Scratch(N);
    return scaledCopy(Z.data(), Scratch.data(), N);
  });
  expectNear(DIn, Ref, 1e-6);
  EXPECT_EQ(DOut, std::vector<double>(N, 0.0));
}

TEST(Memory, GuardOfAnInnerLoopReadFromMemoryTheLoopOverwrites) {
  const std::vector<int> Lengths = {3, 0, 4, 1, 0, 2};
  const int Rows = 6, Width = 4;
  const std::vector<double> X = wave(Rows * Width, 1.2);
  std::vector<double> Primal = X, DX(X.size(), 0.0);
  std::vector<int> Len = Lengths;
  slope::grad<clearedRows>(slope::dup(Primal.data(), DX.data()), Len.data(),
                           Rows, Width);
  auto Ref = fdGradient(X, [&](std::vector<double> &Z) {
    std::vector<double> Copy = Z;
    std::vector<int> L = Lengths;
    return clearedRows(Copy.data(), L.data(), Rows, Width);
  });
  expectNear(DX, Ref, 1e-6);
  EXPECT_EQ(Len, std::vector<int>(Rows, 0));
}

/// roundsOfGathers' gradient with respect to a and x against central
/// differences, one lane or two.
void expectRoundsOfGathers(bool Half, bool Lanes) {
  const int N = 9, Rounds = 4;
  const std::vector<double> A = wave(N, 0.9), X = wave(N, 0.7);
  auto Objective = [&](const std::vector<double> &AV,
                       const std::vector<double> &XV) {
    std::vector<double> XC = XV, Y(N);
    return roundsOfGathers(AV.data(), XC.data(), Y.data(), N, Rounds, Half);
  };
  auto RefA =
      fdGradient(A, [&](std::vector<double> &Z) { return Objective(Z, X); });
  auto RefX =
      fdGradient(X, [&](std::vector<double> &Z) { return Objective(A, Z); });
  std::vector<double> XC = X, Y(N), DA(N), DX(N), DY(N), DA1(N), DX1(N), DY1(N);
  if (Lanes)
    slope::grad<roundsOfGathers>(
        slope::dup(A.data(), slope::lanes(DA.data(), DA1.data())),
        slope::dup(XC.data(), slope::lanes(DX.data(), DX1.data())),
        slope::dup(Y.data(), slope::lanes(DY.data(), DY1.data())), N, Rounds,
        Half);
  else
    slope::grad<roundsOfGathers>(
        slope::dup(A.data(), DA.data()), slope::dup(XC.data(), DX.data()),
        slope::dup(Y.data(), DY.data()), N, Rounds, Half);
  expectNear(DA, RefA, 1e-6);
  expectNear(DX, RefX, 1e-6);
  if (Lanes) {
    expectNear(DA1, RefA, 1e-6);
    expectNear(DX1, RefX, 1e-6);
  }
  // The primal's effects: x holds what the plain call leaves.
  std::vector<double> Plain = X, PlainY(N);
  roundsOfGathers(A.data(), Plain.data(), PlainY.data(), N, Rounds, Half);
  EXPECT_EQ(XC, Plain);
}

TEST(Memory, GathersFromMemoryOnlyACopyOverwrites) {
  expectRoundsOfGathers(/*Half=*/false, /*Lanes=*/false);
}

TEST(Memory, GathersPartlyOutsideWhatTheCopyOverwrites) {
  expectRoundsOfGathers(/*Half=*/true, /*Lanes=*/false);
}

TEST(Memory, GathersFromCopiedMemoryInEveryLane) {
  expectRoundsOfGathers(/*Half=*/false, /*Lanes=*/true);
}

TEST(Memory, GathersAfterTheCopyOfTheirRound) {
  const int N = 7, Rounds = 3;
  const std::vector<double> A = wave(N, 0.8), Y0 = wave(N, 1.1);
  auto Objective = [&](const std::vector<double> &AV,
                       const std::vector<double> &YV) {
    std::vector<double> X(N), Y = YV;
    return copyThenGather(AV.data(), X.data(), Y.data(), N, Rounds);
  };
  auto RefA =
      fdGradient(A, [&](std::vector<double> &Z) { return Objective(Z, Y0); });
  auto RefY =
      fdGradient(Y0, [&](std::vector<double> &Z) { return Objective(A, Z); });
  std::vector<double> X(N), Y = Y0, DA(N), DX(N), DY(N);
  slope::grad<copyThenGather>(slope::dup(A.data(), DA.data()),
                              slope::dup(X.data(), DX.data()),
                              slope::dup(Y.data(), DY.data()), N, Rounds);
  expectNear(DA, RefA, 1e-6);
  expectNear(DY, RefY, 1e-6);
}

TEST(Memory, RowStartsCarriedFromThePreviousRow) {
  const std::vector<int> Start = {0, 3, 3, 7, 8, 12};
  const int Rows = 5, N = 12;
  const std::vector<double> V = wave(N, 1.1);
  std::vector<double> DV(N, 0.0);
  slope::grad<rowWeightedSquares>(slope::dup(V.data(), DV.data()), Start.data(),
                                  Rows);
  auto Ref = fdGradient(V, [&](std::vector<double> &Z) {
    return rowWeightedSquares(Z.data(), Start.data(), Rows);
  });
  expectNear(DV, Ref, 1e-6);
}
