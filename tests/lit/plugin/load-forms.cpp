// Both ways of loading the plugin give the same, correct program.
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include %s -o %t.fplugin
// RUN: %t.fplugin | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -Xclang -load -Xclang %slope_plugin -I%include %s -o %t.load
// RUN: %t.load | FileCheck %s
// d/dx (x²y + y) = 2xy, d/dy = x² + 1 at (0.4, 1)
// CHECK: grad 0.8 1.16
// CHECK: derivative 0.8
#include <slope/slope.hpp>

#include <cstdio>

double f(double x, double y) { return x * x * y + y; }

int main() {
  auto [dx, dy] = slope::grad<f>(0.4, 1.0);
  std::printf("grad %g %g\n", dx, dy);
  std::printf("derivative %g\n", slope::derivative<f>(slope::dual(0.4, 1.0), 1.0));
}
