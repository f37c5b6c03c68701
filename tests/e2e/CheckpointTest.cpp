// Time loops differentiated with binomial checkpointing
// (slope::checkpointed, slope/checkpoint.hpp): a state of std::vector
// fields stepped in place, its gradient through the checkpointed loop equal
// to the taped loop's (to 1e-13, relative; the same operations in the same
// order, so in practice to the last bit) and to central differences, with
// few and many snapshots, a step count known only at run time, an early
// exit decided by the state, two loops in a row, and forward mode.
#include "Check.h"

#include <slope/checkpoint.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

namespace {

/// A reaction-diffusion state: u diffuses and feeds v, v damps u.
struct Field {
  std::vector<double> u, v;
  double time, dt;
};

void react(Field &f) {
  const std::size_t n = f.u.size();
  // Gauss-Seidel-like in place: each cell sees its left neighbour's new
  // value (what a taped sweep would have to keep).
  for (std::size_t i = 1; i + 1 < n; ++i)
    f.u[i] +=
        f.dt * (f.u[i - 1] - 2 * f.u[i] + f.u[i + 1]) - f.dt * f.u[i] * f.v[i];
  for (std::size_t i = 0; i < n; ++i)
    f.v[i] += f.dt * std::sin(f.u[i]) * f.v[i];
  f.time += f.dt;
  f.dt *= 1.0 + 0.1 * f.u[n / 2] * f.u[n / 2]; // the step adapts
}

/// Stops once the field's clock passes 0.5 (the step says so).
bool reactUntilHalf(Field &f) {
  react(f);
  return f.time < 0.5;
}

double energy(const Field &f) {
  double e = f.time;
  for (std::size_t i = 0; i < f.u.size(); ++i)
    e += (i + 1) * f.u[i] * f.u[i] + std::cos(f.v[i]);
  return e;
}

double taped(Field &f, int steps) {
  for (int s = 0; s < steps; ++s)
    react(f);
  return energy(f);
}

template <int Snapshots> double checkpointed(Field &f, int steps) {
  slope::checkpointed<react>(f, steps, slope::snapshots(Snapshots));
  return energy(f);
}

double tapedUntilHalf(Field &f, int most) {
  for (int s = 0; s < most; ++s)
    if (!reactUntilHalf(f))
      break;
  return energy(f);
}

double checkpointedUntilHalf(Field &f, int most) {
  slope::checkpointed<reactUntilHalf>(f, most);
  return energy(f);
}

/// Two loops in a row with a change of the state between them.
double twoLoops(Field &f, int steps) {
  slope::checkpointed<react>(f, steps, slope::snapshots(2));
  for (double &x : f.v)
    x = std::tanh(x);
  slope::checkpointed<react>(f, steps + 3);
  return energy(f);
}

double twoLoopsTaped(Field &f, int steps) {
  for (int s = 0; s < steps; ++s)
    react(f);
  for (double &x : f.v)
    x = std::tanh(x);
  for (int s = 0; s < steps + 3; ++s)
    react(f);
  return energy(f);
}

Field start(int n) {
  Field f{std::vector<double>(n), std::vector<double>(n), 0.0, 0.02};
  for (int i = 0; i < n; ++i) {
    f.u[i] = 0.5 + 0.4 * std::sin(0.9 * i);
    f.v[i] = 0.3 + 0.2 * std::cos(1.3 * i);
  }
  return f;
}

Field zeros(int n) {
  return Field{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0), 0.0,
               0.0};
}

using Objective = double (*)(Field &, int);

/// The gradient of F with respect to the entry state (u, v and dt).
template <Objective F> Field gradientOf(int n, int steps) {
  Field f = start(n), df = zeros(n);
  slope::grad<F>(slope::dup(f, df), steps);
  return df;
}

::testing::AssertionResult sameGradient(const Field &a, const Field &b) {
  for (std::size_t i = 0; i < a.u.size(); ++i) {
    if (auto r = check::near(a.u[i], b.u[i], 1e-13, 0); !r)
      return r << " (u[" << i << "])";
    if (auto r = check::near(a.v[i], b.v[i], 1e-13, 0); !r)
      return r << " (v[" << i << "])";
  }
  return check::near(a.dt, b.dt, 1e-13, 0) << " (dt)";
}

/// d F / d u and d F / d dt against central differences.
template <Objective F> void expectAgreesWithDifferences(int n, int steps) {
  Field g = gradientOf<F>(n, steps);
  std::vector<double> fd = check::arrayDifferences(
      [&](double *u, int m) {
        Field f = start(m);
        f.u.assign(u, u + m);
        return F(f, steps);
      },
      start(n).u.data(), n, n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(g.u[i], fd[i], 1e-6, 1e-9)) << "u " << i;
  auto ofDt = [&](double dt) {
    Field f = start(n);
    f.dt = dt;
    return F(f, steps);
  };
  const double h = 1e-7;
  EXPECT_TRUE(check::near(g.dt, (ofDt(0.02 + h) - ofDt(0.02 - h)) / (2 * h),
                          1e-5, 1e-8));
}

} // namespace

TEST(Checkpoint, EqualsTapedWithOneSnapshot) {
  EXPECT_TRUE(sameGradient(gradientOf<checkpointed<1>>(9, 17),
                           gradientOf<taped>(9, 17)));
}

TEST(Checkpoint, EqualsTapedWithFewSnapshots) {
  EXPECT_TRUE(sameGradient(gradientOf<checkpointed<3>>(9, 61),
                           gradientOf<taped>(9, 61)));
}

TEST(Checkpoint, EqualsTapedWithDefaultSnapshots) {
  EXPECT_TRUE(sameGradient(gradientOf<checkpointed<0>>(9, 200),
                           gradientOf<taped>(9, 200)));
}

TEST(Checkpoint, MoreSnapshotsThanSteps) {
  EXPECT_TRUE(sameGradient(gradientOf<checkpointed<50>>(7, 5),
                           gradientOf<taped>(7, 5)));
}

TEST(Checkpoint, AgreesWithCentralDifferences) {
  expectAgreesWithDifferences<checkpointed<2>>(8, 40);
}

TEST(Checkpoint, StepCountKnownAtRunTime) {
  // The count comes from the data, not from a constant the optimizer sees.
  volatile int steps = 29;
  EXPECT_TRUE(sameGradient(gradientOf<checkpointed<2>>(8, steps),
                           gradientOf<taped>(8, steps)));
  EXPECT_TRUE(
      sameGradient(gradientOf<checkpointed<2>>(8, 0), gradientOf<taped>(8, 0)));
}

TEST(Checkpoint, EarlyExitDecidedByTheState) {
  // At most 10000 steps; the clock stops the loop after a few dozen.
  Field probe = start(8), plain = start(8);
  EXPECT_EQ(checkpointedUntilHalf(probe, 10000), tapedUntilHalf(plain, 10000));
  EXPECT_GE(probe.time, 0.5);
  EXPECT_LT(probe.time, 0.9);
  EXPECT_TRUE(sameGradient(gradientOf<checkpointedUntilHalf>(8, 10000),
                           gradientOf<tapedUntilHalf>(8, 10000)));
  expectAgreesWithDifferences<checkpointedUntilHalf>(8, 10000);
}

TEST(Checkpoint, TwoLoopsInARow) {
  EXPECT_TRUE(sameGradient(gradientOf<twoLoops>(8, 21),
                           gradientOf<twoLoopsTaped>(8, 21)));
  expectAgreesWithDifferences<twoLoops>(8, 21);
}

TEST(Checkpoint, ForwardModeEqualsTaped) {
  const int n = 8, steps = 33;
  for (int i = 0; i < n; i += 3) {
    Field a = start(n), da = zeros(n), b = start(n), db = zeros(n);
    da.u[i] = db.u[i] = 1.0;
    da.dt = db.dt = 0.5;
    double through =
        slope::derivative<checkpointed<2>>(slope::dup(a, da), steps);
    double plain = slope::derivative<taped>(slope::dup(b, db), steps);
    EXPECT_TRUE(check::near(through, plain, 1e-13, 0)) << i;
    EXPECT_TRUE(sameGradient(da, db)) << "final tangents " << i;
  }
}

// Several tangents at once: the forward rule would run the loop once per
// lane, so vector mode differentiates the loop's body instead.
TEST(Checkpoint, ForwardLanesEqualTaped) {
  const int n = 8, steps = 21;
  Field a = start(n), b = start(n);
  Field a0 = zeros(n), a1 = zeros(n), b0 = zeros(n), b1 = zeros(n);
  a0.u[1] = b0.u[1] = 1.0;
  a1.u[4] = b1.u[4] = 1.0;
  a1.dt = b1.dt = 0.5;
  auto [through, throughTangents] =
      slope::value_and_derivative<checkpointed<2>>(
          slope::dup(a, slope::lanes(&a0, &a1)), steps);
  auto [plain, plainTangents] = slope::value_and_derivative<taped>(
      slope::dup(b, slope::lanes(&b0, &b1)), steps);
  EXPECT_TRUE(check::near(through, plain, 1e-13, 0));
  for (int lane = 0; lane < 2; ++lane)
    EXPECT_TRUE(
        check::near(throughTangents[lane], plainTangents[lane], 1e-13, 1e-15))
        << lane;
  EXPECT_TRUE(sameGradient(a0, b0));
  EXPECT_TRUE(sameGradient(a1, b1));
  // And each lane is the one-tangent derivative.
  Field c = start(n), c1 = zeros(n);
  c1.u[4] = 1.0;
  c1.dt = 0.5;
  double single = slope::derivative<checkpointed<2>>(slope::dup(c, c1), steps);
  EXPECT_TRUE(check::near(throughTangents[1], single, 1e-13, 1e-15));
}

// Reverse mode with two lanes: the rules keep one record per call, so the
// loop's body is differentiated instead (taped); each lane is the gradient.
TEST(Checkpoint, ReverseLanesEqualTaped) {
  const int n = 8, steps = 21;
  Field a = start(n), d0 = zeros(n), d1 = zeros(n);
  slope::grad<checkpointed<2>>(slope::dup(a, slope::lanes(&d0, &d1)), steps);
  Field taped = gradientOf<checkpointed<2>>(n, steps);
  EXPECT_TRUE(sameGradient(d0, taped));
  EXPECT_TRUE(sameGradient(d1, taped));
}

namespace {

/// A state that counts its steps where copies do not reset the count.
struct Counted {
  std::vector<double> x;
  long *steps;
};

void decay(Counted &c) {
  ++*c.steps;
  for (double &v : c.x)
    v = v - 0.01 * v * v;
}

template <int Snapshots> double countedLoop(Counted &c, int n) {
  slope::checkpointed<decay>(c, n, slope::snapshots(Snapshots));
  return c.x[0] + c.x[1];
}

/// The least r with C(k + r, k) >= n.
int repeatsFor(int n, int k) {
  for (int r = 0;; ++r) {
    double reach = 1;
    for (int i = 1; i <= k; ++i)
      reach = reach * (r + i) / i;
    if (reach >= n)
      return r;
  }
}

} // namespace

TEST(Checkpoint, EachStepRunsAtMostRPlusTwoTimes) {
  // The primal sweep runs each step once; the reverse re-runs it at most
  // r times from a snapshot and once more differentiated.
  for (int n : {1, 2, 10, 100, 300}) {
    long steps = 0;
    Counted c{{0.3, 0.6}, &steps}, dc{{0.0, 0.0}, nullptr};
    slope::grad<countedLoop<3>>(slope::dup(c, dc), n);
    int r = repeatsFor(n, 3);
    EXPECT_LE(steps, long(n) * (r + 2)) << n;
    EXPECT_GE(steps, 2L * n) << n;
    double expected = 1; // d x_n / d x_0 for x -> x - 0.01 x^2
    for (double v = 0.3, i = 0; i < n; ++i, v -= 0.01 * v * v)
      expected *= 1 - 0.02 * v;
    EXPECT_TRUE(check::near(dc.x[0], expected, 1e-12, 0)) << n;
  }
}

namespace {

/// A state with a member that cannot be assigned: snapshots are new copies
/// then, where an assignable state's reuse the snapshots' memory.
struct Pinned {
  const int size;
  std::vector<double> u;
  double dt;
};

void relax(Pinned &p) {
  for (int i = 1; i + 1 < p.size; ++i)
    p.u[i] +=
        p.dt * (p.u[i - 1] - 2 * p.u[i] + p.u[i + 1]) - p.dt * p.u[i] * p.u[i];
}

double pinnedResult(const Pinned &p) {
  double r = 0;
  for (int i = 0; i < p.size; ++i)
    r += (i + 1) * p.u[i] * p.u[i];
  return r;
}

double pinnedTaped(Pinned &p, int steps) {
  for (int s = 0; s < steps; ++s)
    relax(p);
  return pinnedResult(p);
}

double pinnedCheckpointed(Pinned &p, int steps) {
  slope::checkpointed<relax>(p, steps, slope::snapshots(2));
  return pinnedResult(p);
}

template <double (*F)(Pinned &, int)> std::vector<double> pinnedGradient() {
  Pinned p{7, check::wave(7, 0.5), 0.05}, dp{7, std::vector<double>(7), 0};
  slope::grad<F>(slope::dup(p, dp), 30);
  dp.u.push_back(dp.dt);
  return dp.u;
}

} // namespace

TEST(Checkpoint, StateThatCannotBeAssigned) {
  static_assert(!std::is_copy_assignable_v<Pinned>);
  std::vector<double> Through = pinnedGradient<pinnedCheckpointed>(),
                      Plain = pinnedGradient<pinnedTaped>();
  for (std::size_t I = 0; I < Plain.size(); ++I)
    EXPECT_TRUE(check::near(Through[I], Plain[I], 1e-13, 0)) << I;
}
