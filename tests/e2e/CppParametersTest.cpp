// Parameters ordinary C++ code has: scalars by const and non-const
// reference, structs by value and by reference, std::vector, std::array
// and std::span (this file is C++20), containers inside structs; a shadow
// of the wrong size is a clear run-time error. Both modes, against
// analytic derivatives or central differences.
#include "Check.h"

#include <slope/slope.hpp>

#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace {

double weighted(const double &x, double y) { return x * x * std::sin(y); }

void square(double &y) { y = y * y + std::sin(y); }

struct Point {
  double x, y;
};
double radius(Point p) { return std::sqrt(p.x * p.x + p.y * p.y); }
double radiusRef(const Point &p) { return radius(p); }

double energy(const std::vector<double> &v, double k) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += k * v[i] * v[i] * std::cos(v[i]);
  return s;
}

void damp(std::vector<double> &v, double rate) {
  for (double &x : v)
    x = x * std::exp(-rate * x);
}

double dot3(std::array<double, 3> a, const std::array<double, 3> &b) {
  return a[0] * b[0] + a[1] * b[1] + std::sin(a[2]) * b[2];
}

double spanSum(std::span<const double> s) {
  double t = 0;
  for (double v : s)
    t += std::tanh(v);
  return t;
}

struct Layer {
  std::vector<double> w;
  double bias;
};
double neuron(const Layer &layer, const std::vector<double> &in) {
  double s = layer.bias;
  for (std::size_t i = 0; i < in.size(); ++i)
    s += layer.w[i] * in[i];
  return std::tanh(s);
}

// Copies between local arrays of structs: memcpy of bytes the allocas'
// types say are doubles.
double reversedPairs(const double *x, int n) {
  Point p[4], q[4];
  for (int i = 0; i < 4; ++i)
    p[i] = {x[i % n], x[(i + 1) % n]};
  for (int i = 0; i < 4; ++i)
    q[i] = p[3 - i];
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * q[i].x * std::sin(q[i].y);
  return s;
}

} // namespace

TEST(CppParameters, LocalArraysOfStructsCopied) {
  std::vector<double> x = check::wave(4, 0.8), dx(4, 0.0);
  slope::grad<reversedPairs>(slope::dup(x.data(), dx.data()), 4);
  std::vector<double> fd =
      check::arrayDifferences(reversedPairs, x.data(), 4, 4);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(check::near(dx[i], fd[i], 1e-8)) << i;
  std::vector<double> tx(4, 0.0);
  tx[1] = 1.0;
  double t =
      slope::derivative<reversedPairs>(slope::dup(x.data(), tx.data()), 4);
  EXPECT_TRUE(check::near(t, fd[1], 1e-8));
}

TEST(CppParameters, ScalarByConstReferenceIsActive) {
  double x = 1.2, y = 0.4;
  auto [dx, dy] = slope::grad<weighted>(x, y);
  EXPECT_TRUE(check::near(dx, 2 * x * std::sin(y), 1e-14));
  EXPECT_TRUE(check::near(dy, x * x * std::cos(y), 1e-14));
  double t = slope::derivative<weighted>(slope::dual(x, 1.0), y);
  EXPECT_TRUE(check::near(t, 2 * x * std::sin(y), 1e-14));
  // A plain value in forward mode is constant.
  double ty = slope::derivative<weighted>(x, slope::dual(y, 1.0));
  EXPECT_TRUE(check::near(ty, x * x * std::cos(y), 1e-14));
}

TEST(CppParameters, ScalarByReferenceInAndOut) {
  double y = 0.8, dy = 1.0;
  slope::grad<square>(slope::dup(y, dy));
  EXPECT_DOUBLE_EQ(y, 0.8 * 0.8 + std::sin(0.8));
  EXPECT_TRUE(check::near(dy, 2 * 0.8 + std::cos(0.8), 1e-14));
  double z = 0.8, tz = 1.0;
  slope::derivative<square>(slope::dup(z, tz));
  EXPECT_TRUE(check::near(tz, 2 * 0.8 + std::cos(0.8), 1e-14));
}

TEST(CppParameters, StructByValueAndByReference) {
  Point p{0.6, -0.8}, dp{0, 0};
  slope::grad<radius>(slope::dup(p, dp));
  EXPECT_TRUE(check::near(dp.x, 0.6, 1e-14));
  EXPECT_TRUE(check::near(dp.y, -0.8, 1e-14));
  Point dq{0, 0};
  slope::grad<radiusRef>(slope::dup(p, dq));
  EXPECT_TRUE(check::near(dq.x, 0.6, 1e-14));
  Point tp{1.0, 1.0};
  EXPECT_TRUE(check::near(slope::derivative<radius>(slope::dup(p, tp)),
                          0.6 - 0.8, 1e-14));
  EXPECT_DOUBLE_EQ(p.x, 0.6); // the callee's copy changes nothing
}

TEST(CppParameters, VectorByConstReference) {
  std::vector<double> v = check::wave(5, 1.3), dv(5, 0.0);
  double k = 0.7;
  double dk = slope::grad<energy>(slope::dup(v, dv), k);
  double expectedK = 0;
  for (int i = 0; i < 5; ++i) {
    double x = v[i];
    EXPECT_TRUE(check::near(
        dv[i], k * (2 * x * std::cos(x) - x * x * std::sin(x)), 1e-13))
        << i;
    expectedK += x * x * std::cos(x);
  }
  EXPECT_TRUE(check::near(dk, expectedK, 1e-14));
  std::vector<double> tv(5, 0.0);
  tv[2] = 1.0;
  double t = slope::derivative<energy>(slope::dup(v, tv), k);
  double x = v[2];
  EXPECT_TRUE(
      check::near(t, k * (2 * x * std::cos(x) - x * x * std::sin(x)), 1e-13));
}

TEST(CppParameters, VectorChangedInPlace) {
  const std::vector<double> start = check::wave(4, 0.9);
  const std::vector<double> seeds = {0.5, -1.0, 0.25, 2.0};
  double rate = 0.3;
  auto objective = [&](const std::vector<double> &v, double r) {
    std::vector<double> copy = v;
    damp(copy, r);
    double s = 0;
    for (int i = 0; i < 4; ++i)
      s += seeds[i] * copy[i];
    return s;
  };
  std::vector<double> v = start, dv = seeds;
  double dr = slope::grad<damp>(slope::dup(v, dv), rate);
  for (int i = 0; i < 4; ++i) {
    double x = start[i];
    EXPECT_DOUBLE_EQ(v[i], x * std::exp(-rate * x));
    EXPECT_TRUE(check::near(
        dv[i], seeds[i] * std::exp(-rate * x) * (1 - rate * x), 1e-14))
        << i;
  }
  double h = 1e-6;
  EXPECT_TRUE(check::near(
      dr, (objective(start, rate + h) - objective(start, rate - h)) / (2 * h),
      1e-7));
}

TEST(CppParameters, ArrayByValueAndSpan) {
  std::array<double, 3> a{0.3, -1.2, 0.8}, b{2.0, 0.5, -1.5};
  std::array<double, 3> da{}, db{};
  slope::grad<dot3>(slope::dup(a, da), slope::dup(b, db));
  EXPECT_TRUE(check::near(da[0], b[0], 1e-15));
  EXPECT_TRUE(check::near(da[2], std::cos(a[2]) * b[2], 1e-15));
  EXPECT_TRUE(check::near(db[2], std::sin(a[2]), 1e-15));

  std::vector<double> v = check::wave(6, 0.8), dv(6, 0.0);
  slope::grad<spanSum>(slope::dup(v, dv));
  for (int i = 0; i < 6; ++i) {
    double th = std::tanh(v[i]);
    EXPECT_TRUE(check::near(dv[i], 1 - th * th, 1e-14)) << i;
  }
  std::vector<double> tv(6, 1.0);
  double t = slope::derivative<spanSum>(slope::dup(v, tv));
  double expected = 0;
  for (double x : v)
    expected += 1 - std::tanh(x) * std::tanh(x);
  EXPECT_TRUE(check::near(t, expected, 1e-14));
}

TEST(CppParameters, ContainersInsideStructs) {
  Layer layer{{0.4, -0.3, 0.9}, 0.1}, dlayer{{0, 0, 0}, 0};
  std::vector<double> in = {1.0, 0.5, -0.7}, din(3, 0.0);
  slope::grad<neuron>(slope::dup(layer, dlayer), slope::dup(in, din));
  double s = layer.bias;
  for (int i = 0; i < 3; ++i)
    s += layer.w[i] * in[i];
  double g = 1 - std::tanh(s) * std::tanh(s);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(check::near(dlayer.w[i], g * in[i], 1e-14)) << i;
    EXPECT_TRUE(check::near(din[i], g * layer.w[i], 1e-14)) << i;
  }
  EXPECT_TRUE(check::near(dlayer.bias, g, 1e-14));
  // The layer constant, by address.
  std::vector<double> din2(3, 0.0);
  slope::grad<neuron>(slope::constant(&layer), slope::dup(in, din2));
  EXPECT_TRUE(check::near(din2[1], g * layer.w[1], 1e-14));
}

TEST(CppParametersDeathTest, ShadowOfTheWrongSize) {
  std::vector<double> v(3, 1.0), dv(2, 0.0);
  EXPECT_DEATH(slope::grad<energy>(slope::dup(v, dv), 1.0),
               "dx has 2 elements but x has 3");
}
