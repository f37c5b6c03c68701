// Loads in a loop from an address computed before it, which no write in
// the loop may change, are read once before the loop (InvariantLoads.cpp):
// a mesh's time step read by every node update while the update stores
// into the mesh's vectors (a std::vector's buffer holds no field of the
// struct that owns it). Where a write in the loop may change the memory --
// a pointer to the same field, an element of the array the loop updates --
// the load stays where it is. Each kernel is checked against central
// differences in reverse and forward mode.
#include "Check.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <cmath>
#include <vector>

namespace {

struct Mesh {
  std::vector<double> x, v;
  double dt;
};

// dt is read in every node update and grows after each sweep.
double advance(Mesh &m, int steps) {
  int n = int(m.x.size());
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      m.v[i] += m.dt * std::sin(m.x[i]);
      m.x[i] += m.dt * m.v[i];
    }
    m.dt *= 1.0 + 0.1 * std::tanh(m.x[0]);
  }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * m.x[i] * m.v[i];
  return r + m.dt;
}

// The loop also changes dt through a pointer that may point at it (and
// does): dt is a new value in every iteration.
double advanceWithRate(Mesh &m, double *rate, int steps) {
  int n = int(m.x.size());
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i) {
      m.x[i] += m.dt * std::cos(m.v[i]);
      *rate *= 1.05;
    }
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * m.x[i];
  return r + m.dt;
}

double withRateAtDt(Mesh m, int steps) {
  return advanceWithRate(m, &m.dt, steps);
}

// The middle element is read in every iteration and overwritten in one.
double middleOverwritten(double *x, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i) {
    t += x[n / 2] * std::sin(x[i]);
    x[i] = 0.5 * x[i] + 0.1 * t;
  }
  return t;
}

// A coefficient read in half of the iterations only.
double readSometimes(const double *c, double *x, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 2)
      t += *c * x[i] * x[i];
    x[i] = std::cos(x[i]) + 0.1 * t;
  }
  return t;
}

Mesh start(int n) { return {check::wave(n, 0.6), check::wave(n, 0.2), 0.15}; }

std::vector<double *> values(Mesh &m) {
  std::vector<double *> out;
  for (double &e : m.x)
    out.push_back(&e);
  for (double &e : m.v)
    out.push_back(&e);
  out.push_back(&m.dt);
  return out;
}

Mesh zeros(const Mesh &m) {
  return {std::vector<double>(m.x.size()), std::vector<double>(m.v.size()), 0};
}

/// The gradient of \p Result(mesh) with respect to every value of the mesh,
/// against central differences; \p Reverse and \p Forward take a mesh and
/// its shadow.
template <class ResultF, class ReverseF, class ForwardF>
void checkMesh(ResultF Result, ReverseF Reverse, ForwardF Forward) {
  const Mesh Init = start(5);
  Mesh At = Init, Shadow = zeros(Init);
  Reverse(At, Shadow);
  std::vector<double *> Adjoints = values(Shadow);
  for (std::size_t K = 0; K < Adjoints.size(); ++K) {
    auto Value = [&](double Offset) {
      Mesh Moved = Init;
      *values(Moved)[K] += Offset;
      return Result(Moved);
    };
    double Step = 1e-6;
    double Central = (Value(Step) - Value(-Step)) / (2 * Step);
    EXPECT_TRUE(check::near(*Adjoints[K], Central, 1e-6, 1e-8))
        << "reverse, value " << K;
    Mesh From = Init, Tangent = zeros(Init);
    *values(Tangent)[K] = 1;
    EXPECT_TRUE(check::near(Forward(From, Tangent), Central, 1e-6, 1e-8))
        << "forward, value " << K;
  }
}

} // namespace

TEST(InvariantLoads, TimeStepReadByEveryNodeUpdate) {
  checkMesh([](Mesh &M) { return advance(M, 4); },
            [](Mesh &M, Mesh &D) { slope::grad<advance>(slope::dup(M, D), 4); },
            [](Mesh &M, Mesh &T) {
              return slope::derivative<advance>(slope::dup(M, T), 4);
            });
}

TEST(InvariantLoads, TimeStepChangedThroughAPointerInTheLoop) {
  checkMesh([](Mesh &M) { return withRateAtDt(M, 3); },
            [](Mesh &M, Mesh &D) {
              slope::grad<advanceWithRate>(slope::dup(M, D),
                                           slope::dup(&M.dt, &D.dt), 3);
            },
            [](Mesh &M, Mesh &T) {
              return slope::derivative<advanceWithRate>(
                  slope::dup(M, T), slope::dup(&M.dt, &T.dt), 3);
            });
}

TEST(InvariantLoads, ElementTheLoopOverwrites) {
  std::vector<double> X = check::wave(7, 0.8), DX(7);
  SLOPE_EXPECT_GRADIENT(middleOverwritten, slope::dup(X.data(), DX.data(), 7),
                        7);
}

TEST(InvariantLoads, ReadInSomeIterations) {
  std::vector<double> C = {0.7}, DC(1), X = check::wave(6, 0.4), DX(6);
  SLOPE_EXPECT_GRADIENT(readSometimes, slope::dup(C.data(), DC.data(), 1),
                        slope::dup(X.data(), DX.data(), 6), 6);
}
