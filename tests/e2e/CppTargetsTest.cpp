// Targets ordinary C++ code has (C++17): member functions, const or not,
// with the object constant or differentiated; functors and capturing
// lambdas passed as the first argument; overloaded functions chosen by a
// cast; a virtual function called on an object of a final class. Both
// modes, against analytic derivatives or central differences.
#include "Check.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

struct Model {
  double a, b;
  double loss(double x) const { return a * std::sin(x) * x + b * x; }
  // Changes the model: a gradient step-like update.
  void relax(double h) {
    a = a - h * std::sin(a * b);
    b = b * std::exp(-h * a);
  }
};

struct Quadratic {
  double c;
  double operator()(double x) const { return c * x * x + std::cos(c * x); }
};

double overloaded(double x) { return x * std::exp(x); }
float overloaded(float x) { return x * x; }

struct Shape {
  virtual double area(double s) const { return s * s; }
  virtual ~Shape() = default;
};
struct Disc final : Shape {
  double area(double r) const override { return 3.14159 * r * r; }
};
double discArea(const Disc &d, double r) { return d.area(r) + std::sin(r); }

} // namespace

TEST(CppTargets, ConstMemberFunctionWithActiveObject) {
  Model m{1.3, -0.4}, dm{0, 0};
  double x = 0.7;
  double dx = slope::grad<&Model::loss>(slope::dup(m, dm), x);
  EXPECT_TRUE(
      check::near(dx, m.a * (std::cos(x) * x + std::sin(x)) + m.b, 1e-14));
  EXPECT_TRUE(check::near(dm.a, std::sin(x) * x, 1e-14));
  EXPECT_TRUE(check::near(dm.b, x, 1e-14));
  // The object by pointer, as dup(&m, &dm), accumulates the same again.
  slope::grad<&Model::loss>(slope::dup(&m, &dm), x);
  EXPECT_TRUE(check::near(dm.a, 2 * std::sin(x) * x, 1e-14));
}

TEST(CppTargets, ConstMemberFunctionForward) {
  Model m{1.3, -0.4}, tm{0.5, 2.0};
  double x = 0.7;
  double t =
      slope::derivative<&Model::loss>(slope::dup(m, tm), slope::dual(x, 1.0));
  double expected = m.a * (std::cos(x) * x + std::sin(x)) + m.b +
                    tm.a * std::sin(x) * x + tm.b * x;
  EXPECT_TRUE(check::near(t, expected, 1e-14));
  // A constant object: only x moves.
  double only =
      slope::derivative<&Model::loss>(slope::constant(&m), slope::dual(x, 1.0));
  EXPECT_TRUE(
      check::near(only, m.a * (std::cos(x) * x + std::sin(x)) + m.b, 1e-14));
}

TEST(CppTargets, MemberFunctionThatChangesTheObject) {
  // Objective: w · (a', b') after relax(h); seeds w in the shadow.
  const double wa = 0.8, wb = -1.1, h = 0.3;
  auto objective = [&](double a, double b, double step) {
    Model m{a, b};
    m.relax(step);
    return wa * m.a + wb * m.b;
  };
  Model m{1.3, -0.4}, dm{wa, wb};
  double dh = slope::grad<&Model::relax>(slope::dup(m, dm), h);
  Model after{1.3, -0.4};
  after.relax(h);
  EXPECT_DOUBLE_EQ(m.a, after.a); // the primal effect happens
  EXPECT_DOUBLE_EQ(m.b, after.b);
  EXPECT_TRUE(check::near(
      dm.a, check::centralDifference<0>(objective, 1.3, -0.4, h), 1e-7));
  EXPECT_TRUE(check::near(
      dm.b, check::centralDifference<1>(objective, 1.3, -0.4, h), 1e-7));
  EXPECT_TRUE(check::near(
      dh, check::centralDifference<2>(objective, 1.3, -0.4, h), 1e-7));

  // Forward: the tangent of a' along (1, 0, 0).
  Model f{1.3, -0.4}, tf{1.0, 0.0};
  slope::derivative<&Model::relax>(slope::dup(f, tf), h);
  auto aAfter = [&](double a, double b) {
    Model m{a, b};
    m.relax(h);
    return m.a;
  };
  EXPECT_TRUE(
      check::near(tf.a, check::centralDifference<0>(aAfter, 1.3, -0.4), 1e-7));
}

TEST(CppTargets, Functor) {
  Quadratic q{1.7};
  double x = 0.4;
  double expected = 2 * q.c * x - q.c * std::sin(q.c * x);
  EXPECT_TRUE(check::near(slope::grad(q, x), expected, 1e-14));
  EXPECT_TRUE(
      check::near(slope::derivative(q, slope::dual(x, 1.0)), expected, 1e-14));
  // Its state differentiated: dup(q, dq).
  Quadratic dq{0};
  double dx = slope::grad(slope::dup(q, dq), x);
  EXPECT_TRUE(check::near(dx, expected, 1e-14));
  EXPECT_TRUE(check::near(dq.c, x * x - x * std::sin(q.c * x), 1e-14));
  auto [value, g] = slope::value_and_grad(q, x);
  EXPECT_DOUBLE_EQ(value, q(x));
  EXPECT_TRUE(check::near(g, expected, 1e-14));
}

TEST(CppTargets, CapturingLambdas) {
  double scale = 1.5;
  double weights[3] = {0.2, -0.7, 1.1};
  auto byReference = [&](double x) {
    double s = 0;
    for (int i = 0; i < 3; ++i)
      s += weights[i] * std::sin((i + 1) * x);
    return scale * s;
  };
  auto byValue = [scale](double x) { return scale * std::exp(x * scale); };
  double x = 0.35;
  double expected = 0;
  for (int i = 0; i < 3; ++i)
    expected += weights[i] * (i + 1) * std::cos((i + 1) * x);
  expected *= scale;
  EXPECT_TRUE(check::near(slope::grad(byReference, x), expected, 1e-14));
  EXPECT_TRUE(check::near(slope::derivative(byReference, slope::dual(x, 1.0)),
                          expected, 1e-14));
  double byValueExpected = scale * scale * std::exp(x * scale);
  EXPECT_TRUE(check::near(slope::grad(byValue, x), byValueExpected, 1e-14));
  EXPECT_TRUE(check::near(slope::derivative(byValue, slope::dual(x, 1.0)),
                          byValueExpected, 1e-14));
}

TEST(CppTargets, OverloadChosenByCast) {
  double x = 0.6;
  constexpr auto pick = static_cast<double (*)(double)>(overloaded);
  EXPECT_TRUE(check::near(slope::grad<pick>(x), (1 + x) * std::exp(x), 1e-14));
  EXPECT_FLOAT_EQ(slope::grad<static_cast<float (*)(float)>(overloaded)>(0.6f),
                  1.2f);
  EXPECT_TRUE(check::near(slope::derivative<pick>(slope::dual(x, 1.0)),
                          (1 + x) * std::exp(x), 1e-14));
}

TEST(CppTargets, VirtualFunctionOnFinalClass) {
  Disc d;
  double r = 0.9;
  double expected = 2 * 3.14159 * r + std::cos(r);
  EXPECT_TRUE(check::near(slope::grad<discArea>(slope::constant(&d), r),
                          expected, 1e-14));
  EXPECT_TRUE(check::near(
      slope::derivative<discArea>(slope::constant(&d), slope::dual(r, 1.0)),
      expected, 1e-14));
}
