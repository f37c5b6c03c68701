// -fplugin-arg-slope-dump shows each generated derivative once, with its
// source name; an unknown option is an error that lists the known ones.
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -Xclang -plugin-arg-slope -Xclang dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -fplugin=%slope_plugin -fplugin-arg-slope-verbose -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: slope: unknown plugin option 'verbose' (known: dump, verify)
#include <slope/slope.hpp>

#include <cmath>

double f(double x) { return std::exp(x) * x; }

double a(double x) { return slope::grad<f>(x); }
double b(double x) { return slope::grad<f>(x + 1); }
double c(double x) { return slope::derivative<f>(slope::dual(x, 1.0)); }

// CHECK: slope: generated _Z1fd.slope.reverse.A.noresult (f(double))
// CHECK-NEXT: ; Function Attrs:
// CHECK-NEXT: define internal { double, double } @_Z1fd.slope.reverse.A.noresult(
// CHECK: slope: generated _Z1fd.slope.forward.A (f(double))
// CHECK-NOT: slope: generated
