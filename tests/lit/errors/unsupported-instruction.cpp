// Bit tricks on an active value are an error naming the instruction, never
// a silently wrong derivative, in both modes.
// RUN: not %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cstdint>
#include <cstring>

double flipLowBit(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits ^= 1;
  std::memcpy(&x, &bits, sizeof bits);
  return x * 3;
}

// CHECK: unsupported-instruction.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'bitcast' instruction in 'flipLowBit(double)': this instruction does not propagate derivatives
double reverse() { return slope::grad<flipLowBit>(1.0); }
// CHECK: unsupported-instruction.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'bitcast' instruction
double forward() { return slope::derivative<flipLowBit>(slope::dual(1.0, 1.0)); }
