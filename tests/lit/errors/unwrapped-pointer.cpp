// A pointer to floating-point data must say how it takes part.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed{{.*}}a pointer to floating-point data must be wrapped: slope::dup(x, dx) to differentiate it, or slope::constant(x)
#include <slope/slope.hpp>

double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

double use(const double *x) { return slope::grad<sum>(x, 4); }
