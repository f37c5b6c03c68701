// A "library" compiled without the plugin: its functions are
// differentiated at the link of an -flto build.
#include "Library.h"

#include <cmath>

double energy(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * std::sin(x[i]);
  return s;
}

double Spring::potential(double stretch) const {
  return 0.5 * stiffness * stretch * stretch + std::cos(stretch);
}
