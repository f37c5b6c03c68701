// OpenMP parallel regions inside differentiated functions
// (src/core/parallel/OpenMP.h). Every kernel is checked against central
// differences in reverse and forward mode (check_gradient) with teams of
// 1, 2 and 4 threads, and the reverse gradients of the larger teams
// against the one-thread gradient: they may differ only by the rounding of
// sums the threads add up in another order.
#include "../Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <omp.h>

#include <cmath>
#include <vector>

namespace {

void squares(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i] + std::sin(x[i]);
}

// Neighbouring iterations read the same x: threads add to the same
// adjoints at chunk borders.
void stencil(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; ++i)
    y[i] = x[i - 1] * x[i] - 2 * x[i] + std::sin(x[i + 1]);
}

// Two worksharing loops in one region: the second reads what other
// threads wrote before the implicit barrier, and updates u in place.
void twoSweeps(double *u, double *v, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      v[i] = u[i] * u[i];
#pragma omp for
    for (int i = 1; i < n - 1; ++i)
      u[i] = v[i - 1] + v[i + 1] * v[i];
  }
}

// An explicit barrier between a thread's own writes and its reads of its
// neighbours' writes.
void barrierExchange(double *u, double *v, int n) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = t; i < n; i += nt)
      v[i] = std::exp(0.1 * u[i]);
#pragma omp barrier
    for (int i = t; i < n; i += nt)
      u[i] = v[(i + 1) % n] * v[i];
  }
}

double sum(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * std::cos(x[i]);
  return s;
}

double product(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; ++i)
    p *= 1 + 0.1 * x[i];
  return p;
}

// The adjoint goes to the element that held the extremum, whichever thread
// combined it last.
double extremes(const double *x, int n) {
  double hi = -1e300, lo = 1e300;
#pragma omp parallel for reduction(max : hi) reduction(min : lo)
  for (int i = 0; i < n; ++i) {
    double v = x[i] * (1 + 0.01 * i);
    hi = std::fmax(hi, v);
    lo = std::fmin(lo, v);
  }
  return hi - 2 * lo;
}

double dynamicChunks(const double *x, int n) {
  double s = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += std::exp(0.1 * x[i]) * x[(i + 1) % n];
  return s;
}

double collapsed(const double *a, int n) {
  double s = 0;
#pragma omp parallel for collapse(2) schedule(static, 2) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += a[i * n + j] * a[j * n + i];
  return s;
}

// A critical section that does not commute: its reverses must run in the
// opposite order of the sections.
double criticalMax(const double *x, int n) {
  double m = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double t = x[i] * x[i] * (1 + 0.01 * i);
#pragma omp critical
    m = std::fmax(m, t);
  }
  return m;
}

double atomicSum(const double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double t = std::sqrt(1 + x[i] * x[i]);
#pragma omp atomic
    s += t;
  }
  return s;
}

// Private and firstprivate scalars, a scale shared by reference, and an
// inner loop.
double privates(const double *x, double scale, int n) {
  double s = 0, offset = 0.5;
  double t;
#pragma omp parallel for private(t) firstprivate(offset) reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    t = 0;
    for (int k = 0; k <= i % 4; ++k)
      t += std::sin(x[i] + k * offset);
    s += scale * t * t;
  }
  return s;
}

// The region sits in a callee of the target.
void scaleInPlace(double *x, int n, double f) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    x[i] *= f * std::cos(x[i]);
}
double callsARegion(double *x, double f, int n) {
  scaleInPlace(x, n, f);
  scaleInPlace(x, n, f);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

// Every thread reads every body: each thread's adjoints go to a buffer of
// its own and are added into the shared ones where its loop nest ends
// (PrivateAdjoints.h).
double pairPotential(const double *pos, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (j == i)
        continue;
      double dx = pos[2 * i] - pos[2 * j], dy = pos[2 * i + 1] - pos[2 * j + 1];
      e += 1 / std::sqrt(dx * dx + dy * dy + 0.1);
    }
  return e;
}

// The thread reads the element it wrote in the iteration before: the
// reverse of the read adds to x's adjoint, which the reverse of the write
// takes next. A buffer of the thread's own would hide the addition from
// it, so x's adjoints stay atomic adds (the test before the loop nest finds
// the ranges overlapping); c's adjoints, which every thread adds to, go to
// a buffer of each thread's own.
void scaleRepeatedly(double *x, const double *c, int n, int m) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k)
      x[i] = x[i] * c[k] + 0.1 * c[k];
}

// Row by row, each element from the one before it, in place when u and v
// are the same array: the reverse of a read adds to the adjoint that the
// reverse of the previous element's write takes next. Where the arrays
// are one, the test before the loop nest finds u's adjoints overlapping
// v's and keeps the atomic adds; apart, u's adjoints go to a buffer.
void rowRecurrence(const double *u, double *v, int rows, int m) {
#pragma omp parallel for
  for (int i = 0; i < rows; ++i)
    for (int k = 1; k < m; ++k)
      v[i * m + k] = 0.5 * u[i * m + k - 1] * u[i * m + k - 1] + u[i * m + k];
}
void rowRecurrenceInPlace(double *x, int rows, int m) {
  rowRecurrence(x, x, rows, m);
}

// A region inside a region (the inner one gets a team of one thread, as
// libomp runs nested regions by default).
double nestedRegions(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    double t = 0;
#pragma omp parallel for reduction(+ : t)
    for (int j = 0; j < n; ++j)
      t += x[i] * std::sin(x[j]);
    s += t;
  }
  return s;
}

// One thread updates x in place; after the single's barrier every thread
// reads it.
double singleThenShared(double *x, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < n; ++i)
        x[i] = x[i] * x[i];
    }
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; ++i)
      s += std::sin(x[i]) * x[(i + 1) % n];
  }
  return s;
}

// A team size of its own, and a region that runs serially below a size.
double clauses(const double *x, int n) {
  double s = 0, t = 0;
#pragma omp parallel for num_threads(3) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
#pragma omp parallel for if (n > 1000) reduction(+ : t)
  for (int i = 0; i < n; ++i)
    t += std::exp(0.1 * x[i]);
  return s * t;
}

std::vector<double> inputs(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.3 + 0.37 * std::sin(1.7 * i);
  return x;
}

constexpr int N = 37;
const int Teams[] = {1, 2, 4};

struct ThreadCount {
  explicit ThreadCount(int n) : Saved(omp_get_max_threads()) {
    omp_set_num_threads(n);
  }
  ~ThreadCount() { omp_set_num_threads(Saved); }
  int Saved;
};

// The reverse gradient of \p F with respect to its first argument in each
// team size, compared with the one-thread gradient.
template <auto F, class... Rest>
void expectTeamsAgree(std::vector<double> X, Rest... rest) {
  std::vector<double> Serial;
  for (int Team : Teams) {
    ThreadCount Count(Team);
    std::vector<double> Copy = X, D(X.size(), 0.0);
    slope::grad<F>(slope::dup((const double *)Copy.data(), D.data()), rest...);
    if (Serial.empty()) {
      Serial = D;
      continue;
    }
    for (size_t I = 0; I < D.size(); ++I)
      EXPECT_NEAR(D[I], Serial[I], 1e-12 * (1 + std::fabs(Serial[I])))
          << "element " << I << " with " << Team << " threads";
  }
}

TEST(OpenMP, ElementwiseLoop) {
  std::vector<double> X = inputs(N), DX(N), Y(N), DY(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(squares,
                          slope::dup((const double *)X.data(), DX.data(), N),
                          slope::dup(Y.data(), DY.data(), N), N);
  }
}

TEST(OpenMP, NeighboursShareAdjoints) {
  std::vector<double> X = inputs(N), DX(N), Y(N), DY(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(stencil,
                          slope::dup((const double *)X.data(), DX.data(), N),
                          slope::dup(Y.data(), DY.data(), N), N);
  }
}

TEST(OpenMP, ImplicitBarrierBetweenLoops) {
  std::vector<double> U = inputs(N), DU(N), V(N), DV(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(twoSweeps, slope::dup(U.data(), DU.data(), N),
                          slope::dup(V.data(), DV.data(), N), N);
  }
}

TEST(OpenMP, ExplicitBarrier) {
  std::vector<double> U = inputs(N), DU(N), V(N), DV(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(barrierExchange, slope::dup(U.data(), DU.data(), N),
                          slope::dup(V.data(), DV.data(), N), N);
  }
}

TEST(OpenMP, SumReduction) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        sum, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
  expectTeamsAgree<sum>(X, N);
}

TEST(OpenMP, ProductReduction) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        product, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
}

TEST(OpenMP, MaxAndMinReductions) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        extremes, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
  expectTeamsAgree<extremes>(X, N);
}

TEST(OpenMP, DynamicSchedule) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        dynamicChunks, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
  expectTeamsAgree<dynamicChunks>(X, N);
}

TEST(OpenMP, CollapsedLoops) {
  constexpr int M = 7;
  std::vector<double> A = inputs(M * M), DA(M * M);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        collapsed, slope::dup((const double *)A.data(), DA.data(), M * M), M);
  }
}

TEST(OpenMP, CriticalSectionsReverseInOrder) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        criticalMax, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
  expectTeamsAgree<criticalMax>(X, N);
}

TEST(OpenMP, AtomicUpdate) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        atomicSum, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
}

TEST(OpenMP, PrivateAndFirstprivate) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        privates, slope::dup((const double *)X.data(), DX.data(), N), 1.3, N);
  }
}

TEST(OpenMP, RegionInACallee) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(callsARegion, slope::dup(X.data(), DX.data(), N), 0.9,
                          N);
  }
}

TEST(OpenMP, EveryThreadReadsEveryElement) {
  std::vector<double> X = inputs(2 * N), DX(2 * N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        pairPotential, slope::dup((const double *)X.data(), DX.data(), 2 * N),
        N);
  }
  expectTeamsAgree<pairPotential>(X, N);
}

TEST(OpenMP, ReadAfterWriteKeepsSharedAdjoints) {
  constexpr int M = 5;
  std::vector<double> X = inputs(N), DX(N), C = inputs(M), DC(M);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(scaleRepeatedly, slope::dup(X.data(), DX.data(), N),
                          slope::dup((const double *)C.data(), DC.data(), M), N,
                          M);
  }
}

TEST(OpenMP, InPlaceRowsKeepSharedAdjoints) {
  constexpr int Rows = 6, M = 7;
  std::vector<double> X = inputs(Rows * M), DX(Rows * M);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(rowRecurrenceInPlace,
                          slope::dup(X.data(), DX.data(), Rows * M), Rows, M);
  }
}

TEST(OpenMP, RowsIntoAnotherArray) {
  constexpr int Rows = 6, M = 7;
  std::vector<double> U = inputs(Rows * M), DU(Rows * M), V(Rows * M),
                      DV(Rows * M);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        rowRecurrence,
        slope::dup((const double *)U.data(), DU.data(), Rows * M),
        slope::dup(V.data(), DV.data(), Rows * M), Rows, M);
  }
}

TEST(OpenMP, NestedRegions) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        nestedRegions, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
}

TEST(OpenMP, SingleThenShared) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(singleThenShared, slope::dup(X.data(), DX.data(), N),
                          N);
  }
}

TEST(OpenMP, NumThreadsAndIfClauses) {
  std::vector<double> X = inputs(N), DX(N);
  for (int Team : Teams) {
    ThreadCount Count(Team);
    SLOPE_EXPECT_GRADIENT(
        clauses, slope::dup((const double *)X.data(), DX.data(), N), N);
  }
}

// Two lanes of adjoints from one primal sweep through a region equal two
// gradients of one lane each.
TEST(OpenMP, VectorLanes) {
  std::vector<double> X = inputs(N), Y(N), L0(N), L1(N), S0(N, 1.0), S1(N);
  for (int I = 0; I < N; ++I)
    S1[I] = 0.5 * I;
  ThreadCount Count(4);
  std::vector<double> Seed0 = S0, Seed1 = S1;
  slope::grad<stencil>(
      slope::dup((const double *)X.data(), slope::lanes(L0.data(), L1.data())),
      slope::dup(Y.data(), slope::lanes(Seed0.data(), Seed1.data())), N);
  for (const std::vector<double> *Seed : {&S0, &S1}) {
    std::vector<double> One(N), DY = *Seed;
    slope::grad<stencil>(slope::dup((const double *)X.data(), One.data()),
                         slope::dup(Y.data(), DY.data()), N);
    const std::vector<double> &Lane = Seed == &S0 ? L0 : L1;
    for (int I = 0; I < N; ++I)
      EXPECT_NEAR(Lane[I], One[I], 1e-14) << I;
  }
}

// Two tangents of the sum reduction from one forward sweep.
TEST(OpenMP, ForwardLanes) {
  std::vector<double> X = inputs(N), T0(N, 1.0), T1(N);
  for (int I = 0; I < N; ++I)
    T1[I] = 0.5 * I;
  ThreadCount Count(4);
  auto [Along0, Along1] = slope::derivative<sum>(
      slope::dup((const double *)X.data(), slope::lanes(T0.data(), T1.data())),
      N);
  double Want0 = 0, Want1 = 0;
  for (int I = 0; I < N; ++I) {
    double D = std::cos(X[I]) - X[I] * std::sin(X[I]);
    Want0 += D;
    Want1 += 0.5 * I * D;
  }
  EXPECT_NEAR(Along0, Want0, 1e-12);
  EXPECT_NEAR(Along1, Want1, 1e-11);
}

// The analytic gradient of the sum reduction, and its tangent.
TEST(OpenMP, SumReductionAnalytic) {
  std::vector<double> X = inputs(N), DX(N, 0.0), TX(N, 1.0);
  ThreadCount Count(4);
  slope::grad<sum>(slope::dup((const double *)X.data(), DX.data()), N);
  double Tangent = 0;
  for (int I = 0; I < N; ++I) {
    double Want = std::cos(X[I]) - X[I] * std::sin(X[I]);
    EXPECT_NEAR(DX[I], Want, 1e-13) << I;
    Tangent += Want;
  }
  EXPECT_NEAR(slope::derivative<sum>(
                  slope::dup((const double *)X.data(), TX.data()), N),
              Tangent, 1e-12);
}

} // namespace
