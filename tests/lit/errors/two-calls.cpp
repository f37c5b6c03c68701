// Two calls of one target that cannot be differentiated: one error at each
// call, not every error at every call, with and without -g, at -O0 and -O2.
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
#include <slope/slope.hpp>

double Log[8];

double logged(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    Log[i % 8] = x[i];
    s += x[i];
  }
  return s;
}

void first(double *x, double *dx, int n) {
  // CHECK-DAG: two-calls.cpp:[[# @LINE + 1]]:3: error: slope: cannot differentiate 'store' instruction in 'logged(double const*, int)'
  slope::grad<logged>(slope::dup(x, dx), n);
}

void second(double *x, double *dx, int n) {
  // CHECK-DAG: two-calls.cpp:[[# @LINE + 1]]:3: error: slope: cannot differentiate 'store' instruction in 'logged(double const*, int)'
  slope::grad<logged>(slope::dup(x, dx), n);
}

// CHECK: 2 errors generated
