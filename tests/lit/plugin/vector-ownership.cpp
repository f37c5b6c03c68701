// Distinct std::vectors own disjoint buffers, and a vector of doubles holds
// no struct: a store into one vector, or into a field of the struct that
// holds them, cannot change another vector's elements -- as long as no
// write of the function moves a buffer (swap, move, reallocation). The
// masses are loaded again; where the buffers are swapped each step, or a
// raw pointer may point into them, they are taped.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <utility>
#include <vector>

struct Mesh {
  std::vector<double> x, v, mass;
  double dt;
};

double advance(Mesh &m, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int n = 0; n < int(m.x.size()); ++n) {
      m.v[n] += m.dt * m.x[n] / m.mass[n];
      m.x[n] += m.dt * m.v[n];
    }
    m.dt *= 1.01;
  }
  return m.x[0];
}

double advanceSwapped(Mesh &m, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int n = 0; n < int(m.x.size()); ++n)
      m.v[n] += m.dt * m.x[n] / m.mass[n];
    std::swap(m.v, m.mass);
  }
  return m.v[0];
}

double advanceThrough(Mesh &m, double *out, int steps) {
  for (int s = 0; s < steps; ++s)
    for (int n = 0; n < int(m.x.size()); ++n)
      out[n] += m.dt * m.x[n] / m.mass[n];
  return out[0];
}

void use(Mesh &m, Mesh &dm, double *out, double *dout) {
  slope::grad<advance>(slope::dup(m, dm), 3);
  slope::grad<advanceSwapped>(slope::dup(m, dm), 3);
  slope::grad<advanceThrough>(slope::dup(m, dm), slope::dup(out, dout), 3);
}

// CHECK-DAG: vector-ownership.cpp:21:33: remark: in the reverse sweep of 'advance(Mesh&, int)' this value is loaded again (no later write may change that memory)
// CHECK-DAG: vector-ownership.cpp:32:33: remark: the reverse sweep of 'advanceSwapped(Mesh&, int)' tapes a double loaded from memory
// CHECK-DAG: vector-ownership.cpp:41:33: remark: the reverse sweep of 'advanceThrough(Mesh&, double*, int)' tapes a double loaded from memory
