// A call to an unknown function on the active path is an error naming the
// callee, at the grad call, at -O0 and -O2; with -g a note shows the
// statement.
// RUN: not %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,DEBUG
#include <slope/slope.hpp>

double opaque(double);
double f(double x);

double use() {
  // CHECK: unsupported-call.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'opaque(double)' in 'f(double)': no derivative rule for this function and its definition is not available
  return slope::grad<f>(1.0);
}

// The definition may follow the call.
double f(double x) {
  double y = x * 2;
  // DEBUG: unsupported-call.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: the construct Slope cannot differentiate is here
  return opaque(y) + y;
}
// CHECK: 1 error generated
