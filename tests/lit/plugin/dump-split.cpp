// The dump shows every function a request generated: for a recursive
// function in reverse mode, its combined derivative plus the augmented
// forward and reverse part its recursive call uses, with no seam markers
// left in them.
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

double sum(const double *x, int n) { return n == 0 ? 0 : x[0] + sum(x + 1, n - 1); }

void use(const double *x, double *dx, int n) {
  slope::grad<sum>(slope::dup(x, dx), n);
}

// CHECK: slope: generated _Z3sumPKdi.slope.reverse.DI.noresult (sum(double const*, int))
// CHECK: call double @_Z3sumPKdi.slope.augmented.DI{{(\.e[a-z_]+)?}}(
// CHECK: call {{.*}} @_Z3sumPKdi.slope.reverse_part.DI{{(\.e[a-z_]+)?}}(
// CHECK: slope: generated _Z3sumPKdi.slope.augmented.DI{{(\.e[a-z_]+)?}} (sum(double const*, int))
// CHECK: slope: generated _Z3sumPKdi.slope.reverse_part.DI{{(\.e[a-z_]+)?}} (sum(double const*, int))
// CHECK-NOT: slope.seam
