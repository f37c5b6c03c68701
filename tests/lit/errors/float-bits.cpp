// Floating-point data handled as integer bits (here |x| by clearing the
// sign bit of bytes loaded from differentiated memory) carries no
// derivative: an error at the statement, not a silent zero.
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cstdint>
#include <cstring>

double bitwiseAbs(const double *x) {
  std::uint64_t bits;
  std::memcpy(&bits, x, sizeof bits);
  bits &= ~(std::uint64_t(1) << 63);
  double magnitude;
  std::memcpy(&magnitude, &bits, sizeof bits);
  return magnitude * magnitude;
}

// CHECK: error: slope: {{.*}}floating-point data is moved as integers here (bits loaded from differentiated memory as an integer), and derivatives do not pass through integer operations
void gradient(const double *x, double *dx) {
  slope::grad<bitwiseAbs>(slope::dup(x, dx));
}
