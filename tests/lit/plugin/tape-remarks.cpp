// Tape remarks blame aliasing only where a write may change the value: the
// n-body potential writes no memory, so its loads are loaded again (the
// outer iteration's too: no tape entry, not even once per inner loop) and
// nothing says restrict; the in-place update below tapes x[i] because the
// store to y[i] may change it, and says what helps.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTAPE
#include <slope/slope.hpp>

#include <cmath>

double potential(const double *r, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = r[3 * i] - r[3 * j], dy = r[3 * i + 1] - r[3 * j + 1],
             dz = r[3 * i + 2] - r[3 * j + 2];
      e -= 1 / std::sqrt(dx * dx + dy * dy + dz * dz + 1e-4);
    }
  return e;
}

double update(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = std::sin(x[i]);
    s += y[i] * x[i];
  }
  return s;
}

void use(double *r, double *dr, double *y, double *dy, int n) {
  slope::grad<potential>(slope::dup(r, dr), n);
  slope::grad<update>(slope::dup(r, dr), slope::dup(y, dy), n);
}

// CHECK-DAG: remark: in the reverse sweep of 'potential(double const*, int)' this value is loaded again (no later write may change that memory)
// NOTAPE-NOT: 'potential(double const*, int)' tapes a double loaded from memory
// CHECK-DAG: remark: the reverse sweep of 'update(double const*, double*, int)' tapes a double loaded from memory that a write through another pointer may change (declare the pointer parameters __restrict, or pass every pointer with its extent) (8 bytes each time this runs)
