// REQUIRES: gxx
// RUN: not %gxx -std=c++17 -fsyntax-only -I%include %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed: slope: the Slope compiler plugin is not loaded; compile with clang++-19 -fplugin=/path/to/SlopeClang.so
// CHECK-NOT: error:
#include <slope/slope.hpp>

double f(double x) { return x * x; }
double use() { return slope::derivative<f>(slope::dual(1.0, 1.0)); }
