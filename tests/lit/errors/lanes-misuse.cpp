// Vector mode (slope::lanes) misused is one clear error at the call: a dup
// without lanes beside one with lanes, lanes of different counts, and a
// dual without lanes in vector forward mode; a container's lane shadows
// given by value (copies), and an object's dup without lanes beside one
// with lanes.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DMIXED %s 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DCOUNTS %s 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DFORWARD %s 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DCONTAINER %s 2>&1 | FileCheck %s --check-prefix=CONTAINER
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DREFERENCE %s 2>&1 | FileCheck %s --check-prefix=REFERENCE
#include <slope/slope.hpp>

#include <vector>

double norm2(const std::vector<double> &v) { return v[0] * v[0]; }
double scaled(const std::vector<double> &k, const double *x) {
  return k[0] * x[0] * x[1];
}

void axpy(const double *x, double a, double *y) {
  y[0] += a * x[0];
  y[1] += a * x[1];
}

void use(double *x, double *y, double *dx0, double *dx1, double *dx2,
         double *dy0, double *dy1, double *dy2) {
#ifdef MIXED
  // MIXED: error: static assertion failed{{.*}}in vector mode every dup argument takes one shadow per lane
  // MIXED: lanes-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<axpy>(slope::dup(x, dx0), 2.0,
                    slope::dup(y, slope::lanes(dy0, dy1)));
  // MIXED-NOT: error:
  // MIXED: 1 error generated
#endif
#ifdef COUNTS
  // COUNTS: error: static assertion failed{{.*}}every slope::lanes(...) of one call must have the same number of shadows
  // COUNTS: lanes-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<axpy>(slope::dup(x, slope::lanes(dx0, dx1, dx2)), 2.0,
                    slope::dup(y, slope::lanes(dy0, dy1)));
  // COUNTS-NOT: error:
  // COUNTS: 1 error generated
#endif
#ifdef FORWARD
  // FORWARD: error: static assertion failed{{.*}}in vector mode every dual argument takes one tangent per lane
  // FORWARD: lanes-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::derivative<axpy>(slope::dup(x, slope::lanes(dx0, dx1)),
                          slope::dual(2.0, 1.0),
                          slope::dup(y, slope::lanes(dy0, dy1)));
  // FORWARD-NOT: error:
  // FORWARD: 1 error generated
#endif
#ifdef CONTAINER
  // CONTAINER: error: static assertion failed{{.*}}the shadows of an object in vector mode are given by address: slope::dup(v, slope::lanes(&dv0, &dv1))
  // CONTAINER: lanes-misuse.cpp:[[# @LINE + 2]]:{{[0-9]+}}: note: in instantiation
  std::vector<double> v(2), d0(2), d1(2);
  slope::derivative<norm2>(slope::dup(v, slope::lanes(d0, d1)));
#endif
#ifdef REFERENCE
  // REFERENCE: error: static assertion failed{{.*}}in vector mode every dup argument takes one shadow per lane: slope::dup(obj, slope::lanes(&dobj0, &dobj1, ...))
  // REFERENCE: lanes-misuse.cpp:[[# @LINE + 2]]:{{[0-9]+}}: note: in instantiation
  std::vector<double> k(1), dk(1);
  slope::grad<scaled>(slope::dup(k, dk), slope::dup(x, slope::lanes(dx0, dx1)));
  // REFERENCE-NOT: error:
  // REFERENCE: 1 error generated
#endif
}
