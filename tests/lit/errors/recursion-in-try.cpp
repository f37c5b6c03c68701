// A recursive function (Slope cannot inline it) called inside a try block:
// when it cannot throw, the call is an ordinary one and differentiates;
// when it may throw into the handler, that is an error naming the
// construct, at -O0 and -O2.
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null
// RUN: not %clangxx -std=c++17 -O0 -DTHROWS -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -DTHROWS -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cmath>
#include <stdexcept>

__attribute__((noinline)) double damp(double x, int n) {
#ifdef THROWS
  if (x > 1e6)
    throw std::domain_error("damp");
#endif
  return n == 0 ? x : std::cos(damp(std::sin(x), n - 1));
}

double guarded(double x) {
  try {
    return damp(x, 3) * x;
  } catch (const std::domain_error &) {
    return 0;
  }
}

double use() {
  // CHECK: recursion-in-try.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'damp(double, int)' in 'guarded(double)': a call Slope cannot inline (recursion) that may throw into a handler of the function is not supported yet
  return slope::grad<guarded>(0.5);
}
