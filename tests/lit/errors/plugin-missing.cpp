// Without the plugin, a use of the API is one compile error that says which
// flag to add -- with clang and with g++.
// RUN: not %clangxx -std=c++17 -fsyntax-only -I%include %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed{{.*}}the Slope compiler plugin is not loaded; compile with clang++-19 -fplugin=/path/to/SlopeClang.so
// CHECK-NOT: error:
// CHECK: 1 error generated
#include <slope/slope.hpp>

double f(double x) { return x * x; }
double use() { return slope::grad<f>(1.0); }
