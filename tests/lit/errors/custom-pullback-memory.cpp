// A custom pullback reads its pointer arguments' memory when the reverse
// sweep runs. Where a later write may change that memory first (here: the
// next iteration overwrites it), the pullback would see the new contents:
// an error at the call, not a wrong gradient. Without the later write the
// rule is used.
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -DREAD_ONLY -fplugin=%slope_plugin -I%include -c %s -o /dev/null
#include <slope/slope.hpp>

#include <cmath>

__attribute__((noinline)) double norm2(const double *v) {
  return v[0] * v[0] + v[1] * v[1];
}
void norm2_pullback(const double *v, double *dv, double dy) {
  dv[0] += 2 * v[0] * dy;
  dv[1] += 2 * v[1] * dy;

}
slope::Dual<double> norm2_forward(const double *v, const double *dv) {
  return {norm2(v), 2 * v[0] * dv[0] + 2 * v[1] * dv[1]};
}
SLOPE_CUSTOM_DERIVATIVE(norm2, norm2_forward, norm2_pullback);

double steps(double *state, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += norm2(state);
#ifndef READ_ONLY
    state[0] = std::sin(state[1]);
#endif
  }
  return s;
}

void use(double *x, double *dx) { slope::grad<steps>(slope::dup(x, dx), 3); }
// CHECK: error: slope: cannot differentiate call to 'norm2(double const*)' in 'steps(double*, int)': argument 1 points to memory that a later write (at line 31) may change before the reverse sweep runs the custom pullback, which would read the new contents; copy what the call reads into memory nothing writes after it, or register an augmented forward that keeps it (__enzyme_register_gradient)

// In a function Slope splits (here: recursion at -O0), the caller runs
// between the augmented forward and the reverse part: a pullback taking a
// pointer is an error there.
// RUN: not %clangxx -std=c++17 -O0 -DSPLIT -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=SPLIT %s
#ifdef SPLIT
double recursive(double *state, int n) {
  if (n == 0)
    return 0;
  return norm2(state) + recursive(state, n - 1);
}
double outer(double *state) { return recursive(state, 3) * state[0]; }
void useSplit(double *x, double *dx) {
  slope::grad<outer>(slope::dup(x, dx));
}
#endif
// SPLIT: error: slope: cannot differentiate call to 'norm2(double const*)' in 'recursive(double*, int)': argument 1 is a pointer, and in a function Slope splits (recursion, __enzyme_augmentfwd) the caller may change its memory before the reverse part runs the custom pullback; register an augmented forward that keeps what the pullback reads (__enzyme_register_gradient)
