// Reverse mode through loops comes with the tape (next milestone): until
// then it is an error, not a wrong gradient. Forward mode handles loops.
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

double power(double x, int n) {
  double r = 1;
  for (int i = 0; i < n; ++i)
    r *= x;
  return r;
}

// CHECK: reverse-loop.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'power(double, int)' in reverse mode: it contains a loop
double reverse() { return slope::grad<power>(1.5, 3); }
// CHECK-NOT: error:
double forward() { return slope::derivative<power>(slope::dual(1.5, 1.0), 3); }
