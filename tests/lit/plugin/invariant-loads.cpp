// A load in a loop that no write of the loop may change is read once
// before the loop: the mesh's time step, read by every node update while
// the update stores into the mesh's vectors (a vector's buffer holds no
// field of the struct that owns it), is then taped once per sweep instead
// of once per node. Where the loop also writes through a pointer that may
// point at the time step, it stays in the loop and is taped per node. At
// -O0 clang gives no type-based alias tags: nothing moves.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="read once before its loop"
// RUN: %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0 --implicit-check-not="read once before its loop"
#include <slope/slope.hpp>

#include <vector>

struct Mesh {
  std::vector<double> x, v;
  double dt;
};

double advance(Mesh &m, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int n = 0; n < int(m.x.size()); ++n) {
      // CHECK-DAG: invariant-loads.cpp:[[@LINE+1]]:19: remark: this value is read once before its loop: no write in the loop may change it
      m.v[n] += m.dt * m.x[n];
      // CHECK-DAG: invariant-loads.cpp:[[@LINE+1]]:19: remark: this value is read once before its loop: no write in the loop may change it
      m.x[n] += m.dt * m.v[n];
    }
    m.dt *= 1.01;
  }
  return m.x[0];
}

double advanceThrough(Mesh &m, double *rate, int steps) {
  for (int s = 0; s < steps; ++s)
    for (int n = 0; n < int(m.x.size()); ++n) {
      // CHECK-DAG: invariant-loads.cpp:[[@LINE+1]]:19: remark: the reverse sweep of 'advanceThrough(Mesh&, double*, int)' tapes a double loaded from memory
      m.x[n] += m.dt * m.v[n];
      *rate *= 1.01;
    }
  return m.x[0];
}

// O0: remark: the reverse sweep of 'advance(Mesh&, int)' tapes a double
void use(Mesh &m, Mesh &dm, double *rate, double *drate) {
  slope::grad<advance>(slope::dup(m, dm), 3);
  slope::grad<advanceThrough>(slope::dup(m, dm), slope::dup(rate, drate), 3);
}
