// Targets that return a struct by value: forward mode returns the result's
// tangent (a struct of tangents); reverse mode takes the result's adjoint
// first, slope::grad<f>(slope::seed(r_bar), x...). Free functions over
// arrays and scalars, member functions, and capturing lambdas (the seed
// after the callable). Against central differences of seed . f.
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>
#include <vector>

namespace {

struct Frame {
  double x, y;
  int label; // not differentiated
  float weight;
};

Frame rotate(const double *v, double angle) {
  return {std::cos(angle) * v[0] - std::sin(angle) * v[1],
          std::sin(angle) * v[0] + std::cos(angle) * v[1], 3,
          float(angle > 0 ? 0.5 : 0.25)};
}

struct Stats {
  double mean, spread;
};

Stats summarize(const double *v, int n) {
  double mean = 0;
  for (int i = 0; i < n; ++i)
    mean += v[i] / n;
  double spread = 0;
  for (int i = 0; i < n; ++i)
    spread += std::log1p((v[i] - mean) * (v[i] - mean));
  return {mean, spread};
}

struct Oscillator {
  double stiffness, damping;
  Stats state(double t) const {
    return {std::exp(-damping * t) * std::cos(stiffness * t),
            stiffness * std::sin(t) + damping * t * t};
  }
};

/// seed . r, the scalar whose gradient grad<f>(seed(...)) gives.
double weigh(const Frame &r) { return 0.7 * r.x - 1.3 * r.y; }
double weigh(const Stats &r) { return 1.1 * r.mean + 0.4 * r.spread; }

TEST(StructResults, ReverseOverArrayAndScalar) {
  std::vector<double> v = {0.6, -1.1}, dv(2, 0.0);
  double angle = 0.4;
  double dangle = slope::grad<rotate>(slope::seed(Frame{0.7, -1.3, 0, 0.f}),
                                      slope::dup(v.data(), dv.data()), angle);
  EXPECT_TRUE(check::near(
      dangle,
      check::centralDifference<0>(
          [&](double a) { return weigh(rotate(v.data(), a)); }, angle),
      1e-7));
  std::vector<double> fd = check::arrayDifferences(
      [&](double *w) { return weigh(rotate(w, angle)); }, v.data(), 2);
  for (int i = 0; i < 2; ++i)
    EXPECT_TRUE(check::near(dv[i], fd[i], 1e-7)) << "v[" << i << "]";
}

TEST(StructResults, ForwardTangentIsAStruct) {
  std::vector<double> v = {0.6, -1.1}, tangent = {0.3, -0.8};
  double angle = 0.4;
  auto [value, dr] = slope::value_and_derivative<rotate>(
      slope::dup(v.data(), tangent.data()), slope::dual(angle, 0.5));
  EXPECT_EQ(value.label, 3);
  EXPECT_DOUBLE_EQ(value.x, rotate(v.data(), angle).x);
  auto along = [&](double h) {
    std::vector<double> w = {v[0] + h * tangent[0], v[1] + h * tangent[1]};
    return rotate(w.data(), angle + 0.5 * h);
  };
  EXPECT_TRUE(check::near(
      dr.x,
      check::centralDifference<0>([&](double h) { return along(h).x; }, 0.0),
      1e-7, 1e-9));
  EXPECT_TRUE(check::near(
      dr.y,
      check::centralDifference<0>([&](double h) { return along(h).y; }, 0.0),
      1e-7, 1e-9));
}

TEST(StructResults, LoopsAndValueAndGrad) {
  const int n = 6;
  std::vector<double> v = check::wave(n, 0.9), dv(n, 0.0);
  // No active scalar argument: .value alone.
  auto result =
      slope::value_and_grad<summarize>(slope::seed(Stats{1.1, 0.4}),
                                       slope::dup(v.data(), dv.data()), n);
  EXPECT_DOUBLE_EQ(result.value.spread, summarize(v.data(), n).spread);
  std::vector<double> fd = check::arrayDifferences(
      [&](double *w) { return weigh(summarize(w, n)); }, v.data(), n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(dv[i], fd[i], 1e-7, 1e-10)) << "v[" << i << "]";
  std::vector<double> t(n, 0.0);
  t[2] = 1.0;
  Stats dr = slope::derivative<summarize>(slope::dup(v.data(), t.data()), n);
  EXPECT_TRUE(check::near(dr.mean, 1.0 / n, 1e-12));
  EXPECT_TRUE(check::near(weigh(dr), fd[2], 1e-7, 1e-10));
}

TEST(StructResults, MemberFunctionAndLambda) {
  Oscillator o{1.7, 0.3}, d{0, 0};
  double t = 0.8;
  double dt = slope::grad<&Oscillator::state>(
      slope::seed(Stats{1.1, 0.4}), slope::dup(o, d), t);
  auto at = [&](double k, double c, double s) {
    return weigh(Oscillator{k, c}.state(s));
  };
  EXPECT_TRUE(check::near(dt, check::centralDifference<2>(at, 1.7, 0.3, t),
                          1e-7));
  EXPECT_TRUE(check::near(
      d.stiffness, check::centralDifference<0>(at, 1.7, 0.3, t), 1e-7));
  EXPECT_TRUE(check::near(d.damping,
                          check::centralDifference<1>(at, 1.7, 0.3, t), 1e-7));
  double scale = 2.5;
  auto scaled = [&scale](double s) { return Stats{scale * s, s * s}; };
  double ds = slope::grad(scaled, slope::seed(Stats{1.1, 0.4}), 0.6);
  EXPECT_TRUE(check::near(ds, 1.1 * 2.5 + 0.4 * 2 * 0.6, 1e-12));
  Stats tangent = slope::derivative(scaled, slope::dual(0.6, 1.0));
  EXPECT_TRUE(check::near(tangent.spread, 1.2, 1e-12));
}

} // namespace
