// OpenMP atomics on differentiated data: an update that adds or subtracts
// is differentiated (plugin/openmp-regions.cpp covers regions); one whose
// old value the code reads (atomic capture) and one that takes a maximum
// are errors at the construct, never a wrong gradient. So is a
// differentiated firstprivate double, which clang passes as an integer.
// RUN: not %clangxx -std=c++17 -O2 -g -fopenmp -fplugin=%slope_plugin -I%include -DCAPTURE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAPTURE
// RUN: not %clangxx -std=c++17 -O2 -g -fopenmp -fplugin=%slope_plugin -I%include -DMAXIMUM -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAXIMUM
// RUN: not %clangxx -std=c++17 -O2 -g -fopenmp -fplugin=%slope_plugin -I%include -DFIRSTPRIVATE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIRSTPRIVATE
// RUN: %clangxx -std=c++17 -O2 -fopenmp -fplugin=%slope_plugin -I%include -c %s -o /dev/null
#include <slope/slope.hpp>

double accumulate(const double *x, int n) {
  double s = 0, old = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#if defined(CAPTURE)
    // CAPTURE: error: slope: cannot differentiate 'atomicrmw' instruction {{.*}}: the value an atomic update of differentiated data read is used
#pragma omp atomic capture
    // CAPTURE: openmp-atomics.cpp:[[@LINE+1]]:5: note: the construct Slope cannot differentiate is here
    { old = s; s += x[i] * old; }
#elif defined(MAXIMUM)
    // MAXIMUM: error: slope: cannot differentiate 'atomicrmw' instruction {{.*}}: an atomic operation on differentiated data other than an addition or a subtraction
#pragma omp atomic compare
    // MAXIMUM: openmp-atomics.cpp:[[@LINE+1]]:5: note: the construct Slope cannot differentiate is here
    s = s < x[i] ? x[i] : s;
#else
#pragma omp atomic
    s -= x[i] * x[i];
#endif
  }
  return s + old;
}

void gradient(const double *x, double *dx, int n) {
  slope::grad<accumulate>(slope::dup(x, dx), n);
}

#ifdef FIRSTPRIVATE
double scaled(const double *x, double a, int n) {
  double s = 0, b = a * a;
  // FIRSTPRIVATE: error: slope: cannot differentiate 'bitcast' instruction {{.*}}: this instruction does not propagate derivatives: it reinterprets a differentiated floating-point value as an integer (bit manipulation, or an OpenMP firstprivate copy, which clang passes as an integer: share that variable instead)
#pragma omp parallel for firstprivate(b) reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += x[i] * b;
  return s;
}

double scaledGradient(const double *x, double *dx, double a, int n) {
  return slope::grad<scaled>(slope::dup(x, dx), a, n);
}
#endif
