// C++ arguments that would silently be constant, or that Slope cannot
// follow, are one clear error each at the argument or the call: a struct
// pointer, an object or a container holding floating-point data passed
// without dup or constant (the member function's object too); a double&
// the function may change passed as a plain value; a virtual member
// function as target; a generic lambda. Integer-only structs pass as they
// are.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DUNWRAPPED %s 2>&1 | FileCheck %s --check-prefix=UNWRAPPED
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DREFERENCE %s 2>&1 | FileCheck %s --check-prefix=REFERENCE
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DVIRTUAL %s 2>&1 | FileCheck %s --check-prefix=VIRTUAL
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DGENERIC %s 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include %s
#include <slope/slope.hpp>

#include <vector>

struct Model {
  double a, b;
  double loss(double x) const { return a * x + b; }
  virtual double virtualLoss(double x) const { return a * x; }
};
struct Counts {
  int n;
};
double viaPointer(const Model *m, double x) { return m->loss(x); }
double sum(const std::vector<double> &v) { return v[0] + v[1]; }
double counted(const Counts &c, double x) { return c.n * x; }
void twice(double &y) { y *= 2; }

double use(Model &m, std::vector<double> &v, Counts &c) {
  double r = slope::grad<counted>(c, 1.0);
#ifdef UNWRAPPED
  // UNWRAPPED: cpp-arguments.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: argument 1 of 'viaPointer' holds or points to floating-point data but is neither slope::dup nor slope::constant: pass slope::dup(x, dx) to differentiate it, or slope::constant(&x)
  r += slope::grad<viaPointer>(&m, 1.0);
  // UNWRAPPED: cpp-arguments.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: argument 1 of 'Model::loss' holds
  r += slope::grad<&Model::loss>(m, 1.0);
  // UNWRAPPED: cpp-arguments.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: argument 1 of 'sum' holds
  slope::grad<sum>(v);
  // UNWRAPPED-NOT: error:
#endif
#ifdef REFERENCE
  double y = 1;
  // REFERENCE: error: static assertion failed{{.*}}a floating-point value the function may change (a T& parameter) must be wrapped: slope::dup(x, dx) to differentiate it, or slope::constant(&x)
  // REFERENCE: cpp-arguments.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<twice>(y);
  // REFERENCE-NOT: error:
  // REFERENCE: 1 error generated
#endif
#ifdef VIRTUAL
  // VIRTUAL: cpp-arguments.cpp:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate 'Model::virtualLoss': it is virtual, and a member function pointer calls it through the object's vtable
  r += slope::grad<&Model::virtualLoss>(slope::constant(&m), 1.0);
#endif
#ifdef GENERIC
  // GENERIC: error: static assertion failed{{.*}}the callable object has no single operator() (a generic lambda or an overloaded operator())
  r += slope::grad([](auto x) { return x * x; }, 1.0);
#endif
  return r;
}
