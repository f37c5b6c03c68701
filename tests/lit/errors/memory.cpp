// Memory Slope cannot follow is an error naming the construct, never a
// silently wrong derivative.
// RUN: not %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>

double lastValue;

double storesToGlobal(double x) {
  lastValue = x * x;
  return x;
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'store' instruction in 'storesToGlobal(double)': an active value is stored to memory Slope does not track (a global, or a pointer not passed with slope::dup)
double a(double x) { return slope::grad<storesToGlobal>(x); }

// The caller owns x and its shadow: Slope cannot move the shadow along.
double grows(double *x, int n) {
  x = static_cast<double *>(std::realloc(x, n * sizeof(double)));
  return x[0] * x[0];
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'realloc' in 'grows(double*, int)': only memory allocated inside the differentiated function can be reallocated
void b(double *x, double *dx) { slope::grad<grows>(slope::dup(x, dx), 2); }

void flipLowBit(const double *x, double *y) {
  std::uint64_t bits;
  std::memcpy(&bits, x, sizeof bits);
  bits ^= 1;
  std::memcpy(y, &bits, sizeof bits);
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'store' instruction in 'flipLowBit(double const*, double*)': it writes integer bits into floating-point data, which has no derivative Slope can follow
void c(double *x, double *dx, double *y, double *dy) { slope::grad<flipLowBit>(slope::dup(x, dx), slope::dup(y, dy)); }

// Copies of unions of integers and floating-point data: which bytes are
// which is ambiguous. (Records of mixed fields are typed by their layout.)
union Mixed {
  long id;
  double value;
};
void copyMixed(const Mixed *in, Mixed *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i];
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate {{.*}} in 'copyMixed(Mixed const*, Mixed*, int)': {{.*}}Slope cannot tell
void d(Mixed *in, Mixed *din, Mixed *out, Mixed *dout) { slope::grad<copyMixed>(slope::dup(in, din), slope::dup(out, dout), 2); }
