// Verify mode (-fplugin-arg-slope-verify): every value the reverse sweep
// loads again or recomputes is taped as well, and the two are compared at
// run time. A caller that breaks a __restrict promise (one array for both
// parameters) makes a value loaded again stale: verify mode reports the
// function, the statement, how the value was obtained and both values, and
// aborts. Kept promises run to the end. Without the option no check is
// generated.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -fplugin-arg-slope-verify -I%include %s -o %t
// RUN: %t apart | FileCheck --check-prefix=APART %s
// RUN: not --crash %t same 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -fplugin-arg-slope-verify -I%include %s -o %t0
// RUN: %t0 apart | FileCheck --check-prefix=APART %s
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=PLAIN %s
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -fplugin-arg-slope-verify -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKED %s
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

void wave(const double *__restrict x, double *__restrict y, int n) {
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    y[i] = std::sin(v) * v;
  }
}

int main(int argc, char **argv) {
  double x[4] = {0.5, 1.0, 1.5, 2.0}, y[4], dx[4] = {}, dy[4] = {1, 1, 1, 1};
  if (argc > 1 && std::strcmp(argv[1], "same") == 0)
    slope::grad<wave>(slope::dup(x, dx), slope::dup(x, dx), 4);
  else
    slope::grad<wave>(slope::dup(x, dx), slope::dup(y, dy), 4);
  std::printf("dx[1] = %.6f\n", dx[1]);
  return 0;
}

// d/dv (sin v · v) at v = 1: cos 1 + sin 1.
// APART: dx[1] = 1.381773

// CHECK: slope verify: in 'wave(double const*, double*, int)' at {{.*}}verify.cpp:23:16, a double loaded again (no later write may change that memory): the reverse sweep has {{.*}} where the primal sweep had {{.*}}

// PLAIN-NOT: slope.verify.check
// CHECKED: call void @slope.verify.check(
