// Standard library code inside differentiated functions: vectors filled
// with push_back (growth copies), std::sort and std::stable_sort (memmove
// of doubles, a temporary buffer), std::copy, std::swap and std::reverse,
// std::transform and std::inner_product, vectors of std::array copied;
// records of mixed fields (ints, floats and doubles) copied, sorted and
// reversed, and vectors of vectors (memory holding pointers) copied;
// containers passed in that grow (push_back, resize, insert).
// Both modes, against central differences.
// libstdc++ 12's std::stable_sort calls its own deprecated
// get_temporary_buffer, which clang 19 reports (in the header, hence
// before any include).
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

#include "Check.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace {

double pushedBack(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < 3 * n; ++i) // grows (reallocates) several times
    v.push_back(x[i % n] * x[(i + 1) % n]);
  double s = 0;
  for (double e : v)
    s += std::sin(e);
  return s;
}

double sortedWeights(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * v[i] * v[i];
  return s;
}

double stableSorted(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = std::tanh(x[i]);
  std::stable_sort(v.begin(), v.end(), std::greater<double>());
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * v[i];
  return s;
}

double copiedAndSwapped(double *x, int n) {
  std::vector<double> v(n);
  std::copy(x, x + n, v.begin());
  std::reverse(v.begin(), v.end());
  for (int i = 0; i + 1 < n; i += 2)
    std::swap(x[i], x[i + 1]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * x[i] * v[i];
  return s;
}

double transformed(const double *x, int n) {
  std::vector<double> v(n);
  std::transform(x, x + n, v.begin(),
                 [](double e) { return std::exp(-e * e); });
  return std::inner_product(v.begin(), v.end(), x, 0.0);
}

double arraysOfPairs(const double *x, int n) {
  std::vector<std::array<double, 2>> pairs(n);
  for (int i = 0; i < n; ++i)
    pairs[i] = {x[(i + 1) % n] * x[i], std::sin(x[i])};
  std::vector<std::array<double, 2>> copy = pairs;
  double s = 0;
  for (const auto &p : copy)
    s += p[0] * p[1];
  return s;
}

struct Keyed {
  int key;
  double weight;
};

double stableSortedRecords(const double *x, int n) {
  std::vector<Keyed> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = {(i * 7) % 3, x[i] * x[i] + 0.1 * i};
  std::stable_sort(v.begin(), v.end(), [](const Keyed &a, const Keyed &b) {
    return a.key < b.key;
  });
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * v[i].weight;
  return s;
}

struct Mixed {
  float scale;
  int tag;
  double value;
  char label[3];
  double *unused;
};

double mixedRecordsCopied(const double *x, int n) {
  std::vector<Mixed> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = {0.5f * float(i + 1), i, std::cos(x[i]), {'a', 'b', 0}, nullptr};
  std::vector<Mixed> w = v;
  std::reverse(w.begin(), w.end());
  Mixed first = w[0];
  w[n - 1] = first;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * w[i].scale * w[i].value + w[i].tag;
  return s;
}

double nestedVectors(const double *x, int n) {
  std::vector<double> prototype(n, 0.0);
  std::vector<std::vector<double>> rows(3, prototype);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i)
      rows[r][i] = std::sin(x[i] * (r + 1));
  std::vector<std::vector<double>> copy = rows;
  copy.push_back(rows[1]); // grows: the row objects (pointers) move
  for (int r = 0; r < 4; ++r)
    copy[r] = copy[(r + 1) % 4]; // inner vectors assigned: doubles copied
  double s = 0;
  for (const auto &row : copy)
    for (double e : row)
      s += e * e;
  return s;
}

double appended(std::vector<double> &out, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(std::sin(x[i]));
  double s = 0;
  for (double e : out)
    s += e * e;
  return s;
}

template <auto F> void checkAgainstDifferences(int n) {
  std::vector<double> x = check::wave(n, 0.9), dx(n, 0.0);
  std::vector<double> fd = check::arrayDifferences(
      [](double *y, int m) { return F(y, m); }, x.data(), n, n);
  std::vector<double> input = x;
  slope::grad<F>(slope::dup(input.data(), dx.data()), n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(dx[i], fd[i], 1e-7, 1e-9)) << "x[" << i << "]";
  for (int i = 0; i < n; ++i) {
    std::vector<double> tangent(n, 0.0), at = x;
    tangent[i] = 1.0;
    double t = slope::derivative<F>(slope::dup(at.data(), tangent.data()), n);
    EXPECT_TRUE(check::near(t, fd[i], 1e-7, 1e-9)) << "forward x[" << i << "]";
  }
}

} // namespace

TEST(Stl, PushBackGrowth) { checkAgainstDifferences<pushedBack>(5); }
TEST(Stl, Sort) { checkAgainstDifferences<sortedWeights>(7); }
TEST(Stl, StableSort) { checkAgainstDifferences<stableSorted>(6); }
TEST(Stl, CopyReverseSwap) { checkAgainstDifferences<copiedAndSwapped>(6); }
TEST(Stl, TransformInnerProduct) { checkAgainstDifferences<transformed>(5); }
TEST(Stl, VectorsOfArrays) { checkAgainstDifferences<arraysOfPairs>(4); }
TEST(Stl, StableSortOfRecords) {
  checkAgainstDifferences<stableSortedRecords>(9);
}
TEST(Stl, MixedRecordsCopied) {
  checkAgainstDifferences<mixedRecordsCopied>(5);
}
TEST(Stl, NestedVectors) { checkAgainstDifferences<nestedVectors>(4); }

// Containers passed in that grow inside the function: the shadow gets new
// storage from the same allocator as the primal (forward mode: it ends
// with the final size and the appended elements' tangents); in reverse
// mode it keeps its entry storage and size and holds the gradient with
// respect to the entry contents, appended elements seeded with zero.
namespace {

double appendedWithEntries(const std::vector<double> &entries, const double *x,
                           int n) {
  std::vector<double> out = entries;
  return appended(out, x, n);
}

void checkArgumentThatGrows(const std::vector<double> &entries,
                            std::size_t capacity) {
  const int n = 5;
  std::vector<double> x = check::wave(n, 0.7);
  std::vector<double> fdx = check::arrayDifferences(
      [&](double *y, int m) { return appendedWithEntries(entries, y, m); },
      x.data(), n, n);
  std::vector<double> fdOut = check::arrayDifferences(
      [&](double *e, int m) {
        std::vector<double> at(e, e + m);
        return appendedWithEntries(at, x.data(), n);
      },
      entries.data(), int(entries.size()), int(entries.size()));
  std::vector<double> out = entries, dout(entries.size(), 0.0), dx(n, 0.0);
  out.reserve(capacity);
  EXPECT_EQ(out.capacity(), capacity);
  slope::grad<appended>(slope::dup(out, dout), slope::dup(x.data(), dx.data()),
                        n);
  EXPECT_EQ(out.size(), entries.size() + n);
  ASSERT_EQ(dout.size(), entries.size()); // the entry contents' gradient
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(dx[i], fdx[i], 1e-7, 1e-9)) << "x[" << i << "]";
  for (std::size_t j = 0; j < entries.size(); ++j)
    EXPECT_TRUE(check::near(dout[j], fdOut[j], 1e-7, 1e-9))
        << "out[" << j << "]";
  for (std::size_t j = 0; j < entries.size(); ++j) {
    std::vector<double> at = entries, tangent(entries.size(), 0.0);
    at.reserve(capacity);
    tangent[j] = 1.0;
    std::vector<double> tx(n, 0.0);
    double t = slope::derivative<appended>(slope::dup(at, tangent),
                                           slope::dup(x.data(), tx.data()), n);
    EXPECT_TRUE(check::near(t, fdOut[j], 1e-7, 1e-9))
        << "forward out[" << j << "]";
    ASSERT_EQ(tangent.size(), entries.size() + n);
  }
  // Along x = (1, ..., 1): the appended sin(x[i]) have tangents cos(x[i]).
  std::vector<double> at = entries, tangent(entries.size(), 0.0), tx(n, 1.0);
  at.reserve(capacity);
  double t = slope::derivative<appended>(slope::dup(at, tangent),
                                         slope::dup(x.data(), tx.data()), n);
  double along = 0;
  for (int i = 0; i < n; ++i)
    along += fdx[i];
  EXPECT_TRUE(check::near(t, along, 1e-7, 1e-9));
  ASSERT_EQ(tangent.size(), entries.size() + n);
  for (int i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(tangent[entries.size() + i], std::cos(x[i]));
}

double pushedRows(std::vector<std::vector<double>> &m, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    m.push_back(std::vector<double>(3, x[i] * m[0][0]));
  double s = 0;
  for (auto &r : m)
    for (double e : r)
      s += std::sin(e);
  return s;
}

// Appends copies of its entries scaled by a: what the caller seeds in the
// shadow applies to the entries, the appended ones start at zero.
void scaledCopiesAppended(std::vector<double> &v, double a) {
  int n = int(v.size());
  for (int i = 0; i < n; ++i)
    v.push_back(a * v[i] * v[i]);
  for (int i = 0; i < n; ++i)
    v[i] = std::sin(v[i]);
}

double resizedAndInserted(std::vector<double> &v, double a) {
  std::size_t n = v.size();
  v.resize(2 * n + 1);
  for (std::size_t i = n; i < v.size(); ++i)
    v[i] = a * v[i - n] + 1.0;
  v.insert(v.begin(), a * a);
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i + 1) * std::sin(v[i]);
  return s;
}

// A struct of vectors stepped in time: the vectors' data pointers never
// change (their shadows are loaded again in the reverse sweep) ...
struct Fields {
  std::vector<double> x, v;
};
double stepFields(Fields &f, int steps) {
  std::size_t n = f.x.size();
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i)
      f.v[i] += 0.1 * std::sin(f.x[i]);
    for (std::size_t i = 0; i < n; ++i)
      f.x[i] += 0.1 * f.v[i];
  }
  double r = 0;
  for (std::size_t i = 0; i < n; ++i)
    r += (i + 1) * f.x[i] * f.v[i];
  return r;
}

// A vector the steps only read beside one they write: distinct vectors own
// disjoint buffers, so the reverse sweep loads the masses again...
struct Particles {
  std::vector<double> x, mass;
};
double driftParticles(Particles &p, int steps) {
  std::size_t n = p.x.size();
  for (int s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < n; ++i)
      p.x[i] += 0.1 * std::sin(p.x[i]) / p.mass[i];
  double r = 0;
  for (std::size_t i = 0; i < n; ++i)
    r += (i + 1) * p.x[i] * p.mass[i];
  return r;
}
// ... unless the steps swap the buffers: then each vector's elements
// change, and they are taped.
double driftParticlesSwapped(Particles &p, int steps) {
  std::size_t n = p.x.size();
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < n; ++i)
      p.x[i] += 0.1 * std::sin(p.x[i]) / p.mass[i];
    std::swap(p.x, p.mass);
  }
  double r = 0;
  for (std::size_t i = 0; i < n; ++i)
    r += (i + 1) * p.x[i] * p.mass[i];
  return r;
}

// ... or swap every step (double buffering): the shadows swap with them,
// and the reverse sweep swaps them back.
struct PingPong {
  std::vector<double> cur, next;
};
double pingPong(PingPong &g, int steps) {
  std::size_t n = g.cur.size();
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 1; i + 1 < n; ++i)
      g.next[i] =
          0.25 * (g.cur[i - 1] + g.cur[i + 1]) + 0.5 * std::sin(g.cur[i]);
    g.next[0] = g.cur[0];
    g.next[n - 1] = g.cur[n - 1];
    std::swap(g.cur, g.next);
  }
  double r = 0;
  for (std::size_t i = 0; i < n; ++i)
    r += (i + 1) * g.cur[i];
  return r;
}

/// Checks d result / d (the entry values of S's member First), both ways,
/// for a struct S of two vectors.
template <class S, double (*F)(S &, int), std::vector<double> S::*First>
void checkTwoVectorState(const std::vector<double> &first,
                         const std::vector<double> &second, int steps) {
  const int n = int(first.size());
  auto zeros = [n] {
    return S{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  };
  std::vector<double> fd = check::arrayDifferences(
      [&](double *e, int m) {
        S at{{e, e + m}, second};
        return F(at, steps);
      },
      first.data(), n, n);
  S state{first, second}, shadow = zeros();
  slope::grad<F>(slope::dup(state, shadow), steps);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near((shadow.*First)[i], fd[i], 1e-7, 1e-9)) << i;
  for (int i = 0; i < n; ++i) {
    S at{first, second}, tangent = zeros();
    (tangent.*First)[i] = 1.0;
    double t = slope::derivative<F>(slope::dup(at, tangent), steps);
    EXPECT_TRUE(check::near(t, fd[i], 1e-7, 1e-9)) << "forward " << i;
  }
}

} // namespace

TEST(Stl, StructOfVectorsStepped) {
  checkTwoVectorState<Fields, stepFields, &Fields::x>({0.3, -0.2, 0.9, 0.4},
                                                      {0.1, 0.0, -0.3, 0.2}, 5);
}

TEST(Stl, VectorOnlyReadBesideOneWritten) {
  checkTwoVectorState<Particles, driftParticles, &Particles::x>(
      {0.3, -0.2, 0.9, 0.4}, {1.5, 2.0, 1.2, 0.8}, 4);
  checkTwoVectorState<Particles, driftParticlesSwapped, &Particles::x>(
      {0.3, -0.2, 0.9, 0.4}, {1.5, 2.0, 1.2, 0.8}, 3);
}

TEST(Stl, BuffersSwappedEachStep) {
  checkTwoVectorState<PingPong, pingPong, &PingPong::cur>(
      {0.3, -0.2, 0.9, 0.4, 0.7}, {0, 0, 0, 0, 0},
      3); // odd: swapped at the end
}

TEST(Stl, ArgumentResizedAndInsertedInto) {
  const std::vector<double> entries = {0.3, -0.5, 0.8};
  const double a = 0.7;
  auto value = [](std::vector<double> v, double b) {
    return resizedAndInserted(v, b);
  };
  std::vector<double> fd = check::arrayDifferences(
      [&](double *e, int m) {
        return value({e, e + m}, a);
      },
      entries.data(), 3, 3);
  double fdA = check::arrayDifferences(
      [&](double *b, int) { return value(entries, *b); }, &a, 1, 1)[0];
  std::vector<double> v = entries, dv(3, 0.0);
  double da = slope::grad<resizedAndInserted>(slope::dup(v, dv), a);
  EXPECT_TRUE(check::near(da, fdA, 1e-7, 1e-9));
  ASSERT_EQ(dv.size(), 3u);
  for (int j = 0; j < 3; ++j) {
    EXPECT_TRUE(check::near(dv[j], fd[j], 1e-7, 1e-9)) << j;
    std::vector<double> w = entries, tw(3, 0.0);
    tw[j] = 1.0;
    double t = slope::derivative<resizedAndInserted>(slope::dup(w, tw),
                                                     slope::dual(a, 0.0));
    EXPECT_TRUE(check::near(t, fd[j], 1e-7, 1e-9)) << "forward " << j;
    EXPECT_EQ(tw.size(), 8u);
  }
}

TEST(Stl, ArgumentThatGrows) { checkArgumentThatGrows({0.5, -0.7}, 2); }

TEST(Stl, ArgumentThatGrowsWithinCapacity) {
  // No new storage: appended within the capacity.
  checkArgumentThatGrows({0.5, -0.7, 1.1}, 16);
}

TEST(Stl, ArgumentOfVectorsThatGrows) {
  const int n = 3;
  std::vector<double> x = check::wave(n, 0.4);
  auto value = [](std::vector<double> first, const double *y) {
    std::vector<std::vector<double>> m = {first};
    return pushedRows(m, y, 3);
  };
  std::vector<double> fdx = check::arrayDifferences(
      [&](double *y, int) {
        return value({0.3, 0.4}, y);
      },
      x.data(), n, n);
  std::vector<double> fdFirst = check::arrayDifferences(
      [&](double *e, int) {
        return value({e[0], e[1]}, x.data());
      },
      std::vector<double>{0.3, 0.4}.data(), 2, 2);
  std::vector<std::vector<double>> m = {{0.3, 0.4}}, dm = {{0.0, 0.0}};
  std::vector<double> dx(n, 0.0);
  slope::grad<pushedRows>(slope::dup(m, dm), slope::dup(x.data(), dx.data()),
                          n);
  ASSERT_EQ(dm.size(), 1u);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(dx[i], fdx[i], 1e-7, 1e-9)) << "x[" << i << "]";
  for (int j = 0; j < 2; ++j)
    EXPECT_TRUE(check::near(dm[0][j], fdFirst[j], 1e-7, 1e-9)) << j;
  std::vector<std::vector<double>> at = {{0.3, 0.4}}, tm = {{1.0, 0.0}};
  std::vector<double> tx(n, 0.0);
  double t = slope::derivative<pushedRows>(slope::dup(at, tm),
                                           slope::dup(x.data(), tx.data()), n);
  EXPECT_TRUE(check::near(t, fdFirst[0], 1e-7, 1e-9));
  ASSERT_EQ(tm.size(), 1u + n);
  for (int i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(tm[1 + i][2], x[i]); // d(x[i] * m[0][0]) / dm[0][0]
}

TEST(Stl, SeedsOfArgumentThatGrows) {
  const double a = 0.8;
  // Within its capacity the storage stays: seeds apply to the final
  // sin(v0) and sin(v1); the appended a v^2 have zero seeds.
  std::vector<double> v = {0.5, -0.3}, dv = {1.0, 2.0};
  v.reserve(4);
  double da = slope::grad<scaledCopiesAppended>(slope::dup(v, dv), a);
  EXPECT_DOUBLE_EQ(da, 0.0);
  EXPECT_DOUBLE_EQ(dv[0], std::cos(0.5));
  EXPECT_DOUBLE_EQ(dv[1], 2.0 * std::cos(-0.3));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_DOUBLE_EQ(v[2], a * 0.25);
  // Forward mode, into new storage: the tangents of all four.
  std::vector<double> w = {0.5, -0.3}, tw = {1.0, 0.0};
  slope::derivative<scaledCopiesAppended>(slope::dup(w, tw),
                                          slope::dual(a, 1.0));
  ASSERT_EQ(tw.size(), 4u);
  EXPECT_DOUBLE_EQ(tw[0], std::cos(0.5));
  EXPECT_DOUBLE_EQ(tw[1], 0.0);
  EXPECT_DOUBLE_EQ(tw[2], 0.25 + 2 * a * 0.5);
  EXPECT_DOUBLE_EQ(tw[3], 0.09);
}

// Seeds in the storage a container leaves behind when it grows would
// apply to the values as they moved, not to the final elements: the
// program stops with a message instead of a wrong gradient.
TEST(StlDeathTest, SeedsOfArgumentThatMoves) {
  auto seeded = [] {
    std::vector<double> v = {0.5, -0.3}, dv = {1.0, 2.0};
    v.shrink_to_fit();
    slope::grad<scaledCopiesAppended>(slope::dup(v, dv), 0.8);
  };
  EXPECT_DEATH(seeded(), "its shadow holds seeds");
}
