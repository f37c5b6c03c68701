// A call through a function pointer that is only known at run time is an
// error saying so, at -O0 and -O2; with -g a note shows the statement.
// Pointers known at compile time are fine (tests/e2e/TargetsTest.cpp).
// RUN: not %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG
#include <slope/slope.hpp>

#include <cmath>

double square(double x) { return x * x; }

double pick(double x, int k);

double use(int k) {
  // CHECK: indirect-call.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate indirect call in 'pick(double, int)': the function called through this pointer is not known at compile time
  return slope::grad<pick>(1.0, k);
}

double pick(double x, int k) {
  double (*table[2])(double) = {square, std::sqrt};
  // DEBUG: indirect-call.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: the construct Slope cannot differentiate is here
  return table[k & 1](x);
}
// CHECK: 1 error generated
