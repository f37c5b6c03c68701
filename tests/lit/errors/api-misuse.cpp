// Misuses of the API are one clear error each, pointing at the call (no
// cascade of follow-on errors): wrong argument count, an argument that
// does not convert, a struct result without the seed of its adjoint, a
// shadow object of another type than its primal.
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DCOUNT %s 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DCONVERT %s 2>&1 | FileCheck %s --check-prefix=CONVERT
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DRESULT %s 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not %clangxx -std=c++17 -fsyntax-only -fplugin=%slope_plugin -I%include -DSHADOW %s 2>&1 | FileCheck %s --check-prefix=SHADOW
#include <slope/slope.hpp>

#include <vector>

struct Pair {
  double a, b;
};
double scale(double x, int n) { return x * n; }
Pair both(double x) { return {x, x * x}; }
double first(const std::vector<double> &v) { return v[0]; }

void use() {
#ifdef COUNT
  // COUNT: error: static assertion failed{{.*}}wrong number of arguments for the differentiated function
  // COUNT: api-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<scale>(1.0);
  // COUNT-NOT: error:
  // COUNT: 1 error generated
#endif
#ifdef CONVERT
  // CONVERT: error: static assertion failed{{.*}}an argument does not convert to the parameter type
  // CONVERT: api-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<scale>(1.0, "three");
#endif
#ifdef RESULT
  // RESULT: error: static assertion failed{{.*}}the differentiated function returns a struct: pass the adjoint of its result first, slope::grad<f>(slope::seed(r_bar), args...)
  // RESULT: api-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<both>(1.0);
  // RESULT-NOT: error:
  // RESULT: 1 error generated
#endif
#ifdef SHADOW
  std::vector<double> v(2);
  std::vector<float> dv(2);
  // SHADOW: error: static assertion failed{{.*}}the shadow in slope::dup(x, dx) must have x's own type
  // SHADOW: api-misuse.cpp:[[# @LINE + 1]]:{{[0-9]+}}: note: in instantiation
  slope::grad<first>(slope::dup(v, dv));
  // SHADOW-NOT: error:
  // SHADOW: 1 error generated
#endif
}
