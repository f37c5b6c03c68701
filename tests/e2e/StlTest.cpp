// Standard library code inside differentiated functions: vectors filled
// with push_back (growth copies), std::sort and std::stable_sort (memmove
// of doubles, a temporary buffer), std::copy, std::swap and std::reverse,
// std::transform and std::inner_product, vectors of std::array copied;
// records of mixed fields (ints, floats and doubles) copied, sorted and
// reversed, and vectors of vectors (memory holding pointers) copied.
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

// A container passed in that gets a new buffer inside: its shadow cannot
// take it over. The program stops with a message (not a corrupted heap).
TEST(StlDeathTest, ArgumentThatGrowsStops) {
  auto grow = [] {
    std::vector<double> out = {0.5}, dout = {0.0};
    double x[3] = {0.1, 0.2, 0.3}, dx[3] = {};
    slope::grad<appended>(slope::dup(out, dout), slope::dup(x, dx), 3);
  };
  EXPECT_DEATH(grow(), "is stored into memory passed in");
  auto tangent = [] {
    std::vector<double> out = {0.5}, dout = {0.0};
    double x[3] = {0.1, 0.2, 0.3}, tx[3] = {1, 0, 0};
    slope::derivative<appended>(slope::dup(out, dout), slope::dup(x, tx), 3);
  };
  EXPECT_DEATH(tangent(), "is stored into memory passed in");
}
