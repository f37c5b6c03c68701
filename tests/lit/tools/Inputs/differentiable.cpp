// For slope-check.cpp: every grad call here can be differentiated.
#include <slope/slope.hpp>
#include <cmath>
double f(double x) { return std::sin(x) * x; }
double g(double x) { return slope::grad<f>(x); }
