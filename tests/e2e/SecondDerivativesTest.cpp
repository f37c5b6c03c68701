// Second derivatives through what makes reverse mode tape: forward mode
// over a generated gradient with loops whose values the reverse sweep
// reads from the tape, pre-image copies of overwritten memory, heap
// scratch arrays, recursion (split derivatives), growing containers,
// branches and loops with run-time trip counts, and checkpointed time
// loops. Each Hessian-vector product is checked against central
// differences of gradients.
#include "Check.h"

#include <slope/checkpoint.hpp>
#include <slope/operations.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// In place, several sweeps: every overwritten x[i] is taped.
double inPlaceSweeps(double *x, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 1; i < n; ++i)
      x[i] = std::sin(x[i] * x[i - 1]) + 0.5 * x[i];
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += x[i] * x[i];
  return total;
}

// A heap scratch array updated in place.
double heapScratch(const double *x, int n) {
  double *t = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int i = 0; i < n; ++i)
    t[i] = std::exp(0.3 * x[i]);
  for (int s = 0; s < 3; ++s)
    for (int i = 1; i < n; ++i)
      t[i] = t[i] * t[i - 1] * 0.5 + std::sin(t[i]);
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += t[i] * x[i];
  std::free(t);
  return total;
}

// Recursion: its reverse is an augmented forward and a reverse part.
double nested(const double *x, int n) {
  if (n == 0)
    return 1.0;
  return std::cos(x[n - 1] * nested(x, n - 1)) + 0.1 * x[n - 1];
}

// A container that grows while it is filled.
double growing(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(x[i] * x[i]);
  for (int i = 0; i < n; ++i)
    v.push_back(std::exp(v[i]) * x[(i + 1) % n]);
  double total = 0;
  for (double e : v)
    total += e;
  return total;
}

// Bulk copies of memory that is overwritten afterwards.
double bulkCopies(double *x, int n) {
  double copy[16];
  for (int k = 0; k < 3; ++k) {
    std::memcpy(copy, x, n * sizeof(double));
    for (int i = 0; i < n; ++i)
      x[i] = std::tanh(copy[(i + 1) % n] * copy[i]) + x[i];
  }
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += x[i] * x[i] * x[i];
  return total;
}

// Branches on the data and a loop whose trip count depends on it.
double branchy(const double *x, int n) {
  double total = 0, y = 1;
  for (int i = 0; i < n; ++i) {
    if (x[i] * y > 0.2)
      y = std::sqrt(x[i] * x[i] + y);
    else
      y = y * std::exp(-x[i]);
    int repeats = 1 + (x[i] > 0 ? 2 : 0);
    for (int r = 0; r < repeats; ++r)
      y = 0.9 * y + 0.1 * std::cos(y * x[i]);
    total += y * x[i];
  }
  return total;
}

// A time loop in bounded memory (binomial checkpointing).
struct Rod {
  std::vector<double> u;
};
void rodStep(Rod &rod) {
  std::size_t n = rod.u.size();
  std::vector<double> next(rod.u);
  for (std::size_t i = 1; i + 1 < n; ++i)
    next[i] =
        rod.u[i] + 0.1 * std::sin(rod.u[i - 1] - 2 * rod.u[i] + rod.u[i + 1]);
  rod.u = next;
}
double rodEnergy(const double *x, int n) {
  Rod rod{std::vector<double>(x, x + n)};
  slope::checkpointed<rodStep>(rod, 12, slope::snapshots(2));
  double total = 0;
  for (double v : rod.u)
    total += v * v * v;
  return total;
}

std::vector<double> points(int n, double scale, double shift) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = scale * std::sin(1.7 * i + 0.3) + shift;
  return x;
}

/// The gradient at x by grad<F>(dup(x, g), n) on a copy of x.
template <auto F, class X>
std::vector<double> gradientAt(std::vector<double> x) {
  std::vector<double> g(x.size());
  slope::grad<F>(slope::dup(static_cast<X *>(x.data()), g.data()),
                 static_cast<int>(x.size()));
  return g;
}

/// hvp<F> along v against central differences of gradients, and the
/// dense Hessian's product with v against it.
template <auto F, class X> void expectSecondDerivatives(int n) {
  std::vector<double> x = points(n, 0.6, 0.2), v = points(n, 1.0, -0.3);
  std::vector<double> at = x;
  auto Hv = slope::hvp<F>(v, slope::wrt(static_cast<X *>(at.data()), n), n);
  const double h = 1e-6;
  std::vector<double> up(x), down(x);
  for (int i = 0; i < n; ++i) {
    up[i] += h * v[i];
    down[i] -= h * v[i];
  }
  auto gu = gradientAt<F, X>(up), gd = gradientAt<F, X>(down);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(Hv[i], (gu[i] - gd[i]) / (2 * h), 1e-6, 1e-7))
        << "component " << i;
  at = x;
  auto H = slope::hessian<F>(slope::wrt(static_cast<X *>(at.data()), n), n);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j)
      row += H[i * n + j] * v[j];
    EXPECT_TRUE(check::near(row, Hv[i], 1e-10, 1e-12)) << "row " << i;
    for (int j = 0; j < i; ++j)
      EXPECT_TRUE(check::near(H[i * n + j], H[j * n + i], 1e-9, 1e-12))
          << "(" << i << ", " << j << ")";
  }
}

double inPlaceThreeSweeps(double *x, int n) { return inPlaceSweeps(x, n, 3); }

TEST(SecondDerivatives, ThroughTapedInPlaceLoops) {
  expectSecondDerivatives<inPlaceThreeSweeps, double>(9);
}
TEST(SecondDerivatives, ThroughHeapScratchArrays) {
  expectSecondDerivatives<heapScratch, const double>(7);
}
TEST(SecondDerivatives, ThroughRecursion) {
  expectSecondDerivatives<nested, const double>(6);
}
TEST(SecondDerivatives, ThroughGrowingContainers) {
  expectSecondDerivatives<growing, const double>(5);
}
TEST(SecondDerivatives, ThroughBulkCopies) {
  expectSecondDerivatives<bulkCopies, double>(6);
}
TEST(SecondDerivatives, ThroughBranchesAndRunTimeTripCounts) {
  expectSecondDerivatives<branchy, const double>(10);
}
TEST(SecondDerivatives, ThroughCheckpointedTimeLoops) {
  expectSecondDerivatives<rodEnergy, const double>(8);
}

// Forward mode over a gradient the user wrote: derivative<> of a function
// that calls grad<>, with lanes (two directions at once).
void gradientOfSweeps(double *x, double *g, int n) {
  slope::grad<inPlaceSweeps>(slope::dup(x, g), n, 2);
}

TEST(SecondDerivatives, DerivativeOfAFunctionCallingGrad) {
  const int n = 5;
  std::vector<double> x = points(n, 0.5, 0.1), g(n), e0(n), e1(n), h0(n), h1(n);
  e0[1] = 1;
  e1[3] = 1;
  std::vector<double> at = x;
  slope::derivative<gradientOfSweeps>(
      slope::dup(at.data(), slope::lanes(e0.data(), e1.data())),
      slope::dup(g.data(), slope::lanes(h0.data(), h1.data())), n);
  const double h = 1e-6;
  for (int column : {1, 3}) {
    std::vector<double> up(x), down(x), gu(n), gd(n);
    up[column] += h;
    down[column] -= h;
    gradientOfSweeps(up.data(), gu.data(), n);
    gradientOfSweeps(down.data(), gd.data(), n);
    const std::vector<double> &lane = column == 1 ? h0 : h1;
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(check::near(lane[i], (gu[i] - gd[i]) / (2 * h), 1e-6, 1e-7))
          << column << ", " << i;
  }
  // The gradient itself, computed by the primal of the forward sweep.
  std::vector<double> plain(n), xc = x;
  gradientOfSweeps(xc.data(), plain.data(), n);
  for (int i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(g[i], plain[i]);
}

} // namespace
