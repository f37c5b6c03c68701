#ifndef SLOPE_TESTS_LTO_LIBRARY_H
#define SLOPE_TESTS_LTO_LIBRARY_H

double energy(const double *x, int n);

struct Spring {
  double stiffness;
  double potential(double stretch) const;
};

#endif
