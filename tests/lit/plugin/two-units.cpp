// The same derivative generated in two translation units links without
// duplicate symbols (generated functions are internal), at -O0 and -O2.
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -I%S/Inputs %s %S/Inputs/other-unit.cpp -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -I%S/Inputs %s %S/Inputs/other-unit.cpp -o %t2 && %t2 | FileCheck %s
// CHECK: same 1
#include "shared-kernel.h"

#include <cstdio>

int main() {
  double x = 0.7;
  double here = slope::grad<kernel>(x);
  double expected = std::cos(x) * x + std::sin(x);
  std::printf("same %d\n", here == gradientInOther(x) &&
                               std::fabs(here - expected) < 1e-15);
}
