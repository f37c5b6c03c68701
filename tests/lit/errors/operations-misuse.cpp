// Misuse of the named operations is one readable compile error: nothing
// marked slope::wrt, a Hessian of a function without a floating-point
// result, a wrong number of arguments.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DNO_WRT %s 2>&1 | FileCheck %s --check-prefix=NO_WRT
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DVOID_HESSIAN %s 2>&1 | FileCheck %s --check-prefix=VOID_HESSIAN
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DARITY %s 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include %s
#include <slope/operations.hpp>

double energy(const double *x, int n) { return x[0] * x[n - 1]; }
void field(const double *x, double *y, int n) { y[0] = x[0] * x[n - 1]; }

void use(const double *x, double *y, int n) {
#if defined(NO_WRT)
  // NO_WRT: error: static assertion failed{{.*}}slope: name what to differentiate with respect to: slope::wrt(x, n) for an array, slope::wrt(s) for a scalar
  auto H = slope::hessian<energy>(x, n);
#elif defined(VOID_HESSIAN)
  // VOID_HESSIAN: error: static assertion failed{{.*}}slope: hessian and hvp take a function with a floating-point result and no out(...) arguments
  auto H = slope::hessian<field>(slope::wrt(x, n), slope::out(y, 1), n);
#elif defined(ARITY)
  // ARITY: error: static assertion failed{{.*}}slope: a named operation takes one argument per parameter of the function (wrt, out, or the value itself)
  auto H = slope::hessian<energy>(slope::wrt(x, n));
#else
  auto H = slope::hessian<energy>(slope::wrt(x, n), n);
  auto J = slope::jacobian<field>(slope::wrt(x, n), slope::out(y, 1), n);
  (void)J;
#endif
  (void)H;
}
