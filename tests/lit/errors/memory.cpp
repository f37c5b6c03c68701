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

double grows(const double *x, int n) {
  double *buffer = static_cast<double *>(std::malloc(sizeof(double)));
  buffer[0] = x[0];
  buffer = static_cast<double *>(std::realloc(buffer, n * sizeof(double)));
  double s = buffer[0] * x[1];
  std::free(buffer);
  return s;
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'realloc' in 'grows(double const*, int)': reallocating differentiated memory is not supported yet
void b(double *x, double *dx) { slope::grad<grows>(slope::dup(x, dx), 2); }

void copyBits(const double *x, double *y) {
  std::uint64_t bits;
  std::memcpy(&bits, x, sizeof bits);
  std::memcpy(y, &bits, sizeof bits);
}

// CHECK: memory.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'store' instruction in 'copyBits(double const*, double*)': it copies memory as integers, and Slope cannot tell whether the bytes are floating-point data (copy the values as double or float)
void c(double *x, double *dx, double *y, double *dy) { slope::grad<copyBits>(slope::dup(x, dx), slope::dup(y, dy)); }
