// For slope-check.cpp: the grad call here cannot be differentiated.
#include <slope/slope.hpp>
double opaque(double);
double h(double x) { return opaque(x) * x; }
double use(double x) { return slope::grad<h>(x); }
