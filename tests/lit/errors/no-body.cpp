// A target without a visible definition is an error at the call, naming it.
// RUN: not %clangxx -std=c++17 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

double external(double x);

double use() {
  // CHECK: no-body.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'external': its definition is not visible in this translation unit
  return slope::grad<external>(1.0);
}
// CHECK: note: 'external' is declared here
