// A call Slope cannot inline (here: recursion that -O0 keeps) that returns
// a pointer into differentiated memory would leave that pointer without a
// shadow, and loads through it would silently look constant: it is an
// error at the call instead. Where the optimizer removes the recursion
// (-O2 turns the tail call into a loop), it differentiates. Accessors
// nested dozens of levels deep are inlined, not left as calls.
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null
// RUN: %clangxx -std=c++17 -O0 -DDEEP -fplugin=%slope_plugin -I%include -c %s -o /dev/null
#include <slope/slope.hpp>

#include <cmath>

#ifndef DEEP
double *walk(double *p, int k) { return k == 0 ? p : walk(p + 1, k - 1); }
double last(double *x, int n) { return std::sin(*walk(x, n - 1)); }

void use(double *x, double *dx) { slope::grad<last>(slope::dup(x, dx), 3); }
// CHECK: error: slope: cannot differentiate call to 'walk(double*, int)' in 'last(double*, int)': a call Slope cannot inline (recursion, or calls nested deeper than its inlining budget) returns a pointer that may point into differentiated memory; Slope cannot give it a shadow yet
// CHECK: pointer-returning-call.cpp:16:{{[0-9]+}}: note: the construct Slope cannot differentiate is here
#else
#define ACCESSOR(K, J)                                                         \
  __attribute__((noinline)) double *at##K(double *p, int i) {                 \
    return at##J(p, i);                                                        \
  }
__attribute__((noinline)) double *at0(double *p, int i) { return p + i; }
ACCESSOR(1, 0) ACCESSOR(2, 1) ACCESSOR(3, 2) ACCESSOR(4, 3) ACCESSOR(5, 4)
ACCESSOR(6, 5) ACCESSOR(7, 6) ACCESSOR(8, 7) ACCESSOR(9, 8) ACCESSOR(10, 9)
ACCESSOR(11, 10) ACCESSOR(12, 11) ACCESSOR(13, 12) ACCESSOR(14, 13)
ACCESSOR(15, 14) ACCESSOR(16, 15) ACCESSOR(17, 16)
double sines(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(*at17(x, i));
  return s;
}
void use(double *x, double *dx) { slope::grad<sines>(slope::dup(x, dx), 3); }
#endif
