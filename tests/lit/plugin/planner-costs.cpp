// The tape planner's costs. A pointer stepped by a constant is an
// induction, for its shadow too: nothing of a pointer walk is taped. A
// cheap value whose operands the block's reverse reads anyway for other
// partials (the corners of a cross product) is recomputed from them rather
// than taped beside them. A quotient whose dividend costs no tape (masses
// loaded again) is not taped: its partial takes it as dividend·(1/divisor),
// with the reciprocal the other partial computes anyway.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUOTIENT --implicit-check-not="tapes a fdiv result"
#include <slope/slope.hpp>

#include <cmath>

double sumOfSquares(const double *b, const double *e) {
  double r = 0;
  for (; b != e; ++b)
    r += *b * *b;
  return r;
}

double areas(double *x, double *y, const int *corner, int n, int steps) {
  double total = 0;
  for (int s = 0; s < steps; ++s)
    for (int k = 0; k + 1 < n; ++k) {
      int i = corner[k], j = corner[k + 1];
      double area = x[i] * y[j] - x[j] * y[i];
      x[k] += 0.01 * std::sin(area);
      total += area * area;
    }
  return total;
}

double potential(const double *r, const double *m, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double d = r[i] - r[j];
      e -= m[i] * m[j] / std::sqrt(d * d + 1e-4);
    }
  return e;
}

void use(double *x, double *dx, double *y, double *dy, const int *c, int n) {
  slope::grad<sumOfSquares>(slope::dup(x, dx), slope::dup(x + n, dx + n));
  slope::grad<areas>(slope::dup(x, dx), slope::dup(y, dy), c, n, 3);
  slope::grad<potential>(slope::dup(x, dx), slope::constant(y), n);
}

// CHECK-NOT: 'sumOfSquares(double const*, double const*)' tapes
// CHECK: planner-costs.cpp:17:10: remark: in the reverse sweep of 'sumOfSquares(double const*, double const*)' this value is loaded again (no later write may change that memory)
// CHECK-NOT: 'areas(double*, double*, int const*, int, int)' tapes the result of 'llvm.fmuladd.f64'
// CHECK: planner-costs.cpp:26:33: remark: in the reverse sweep of 'areas(double*, double*, int const*, int, int)' this value is recomputed from its operands
// CHECK-NOT: 'areas(double*, double*, int const*, int, int)' tapes the result of 'llvm.fmuladd.f64'
// QUOTIENT: planner-costs.cpp:38:26: remark: the reverse sweep of 'potential(double const*, double const*, int)' tapes the result of 'llvm.sqrt.f64'
