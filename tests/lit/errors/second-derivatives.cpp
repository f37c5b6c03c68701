// What cannot be differentiated twice yet is an error that says so:
// reverse mode over a gradient whose tape holds values of several types
// (here at -O0), and forward mode over the derivative of an OpenMP region.
// Forward mode over the same gradient compiles (e2e/SecondDerivatives).
// RUN: not %clangxx -std=c++17 -O0 -g -fplugin=%slope_plugin -I%include -DREVERSE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: not %clangxx -std=c++17 -O2 -g -fopenmp -fplugin=%slope_plugin -I%include -DPARALLEL -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARALLEL
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null
#include <slope/slope.hpp>

#include <cmath>

double sweeps(double *x, int n) {
  for (int s = 0; s < 2; ++s)
    for (int i = 1; i < n; ++i)
      x[i] = std::sin(x[i] * x[i - 1]) + 0.5 * x[i];
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += x[i] * x[i];
  return total;
}

double parallel(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += std::sin(x[i]) * x[i];
  return s;
}

void gradient(double *x, double *g, int n) {
  slope::grad<sweeps>(slope::dup(x, g), n);
}

void parallelGradient(const double *x, double *g, int n) {
  slope::grad<parallel>(slope::dup(x, g), n);
}

double projected(double *x, const double *w, int n) {
  double g[8] = {}, copy[8];
  for (int i = 0; i < n; ++i)
    copy[i] = x[i];
  gradient(copy, g, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g[i] * w[i];
  return s;
}

void secondDerivatives(double *x, double *v, double *g, double *hv,
                       const double *w, int n) {
  slope::derivative<gradient>(slope::dup(x, v), slope::dup(g, hv), n);
#if defined(REVERSE)
  // REVERSE: error: slope: cannot differentiate call to 'realloc' in 'projected(double*, double const*, int)': reverse mode over a gradient whose tape holds values of several types {{.*}} differentiate the gradient in forward mode instead (slope::hvp, slope::hessian, or slope::derivative of the function calling grad)
  slope::grad<projected>(slope::dup(x, hv), slope::constant(w), n);
#endif
#if defined(PARALLEL)
  // PARALLEL: error: slope: cannot differentiate call to '__kmpc_{{.*}}': a differentiated pointer is passed to a function Slope cannot see into; it is in Slope's derivative of an OpenMP region, which cannot be differentiated again yet (second derivatives of parallel code)
  slope::derivative<parallelGradient>(
      slope::dup(static_cast<const double *>(x), static_cast<const double *>(v)),
      slope::dup(g, hv), n);
#endif
}
