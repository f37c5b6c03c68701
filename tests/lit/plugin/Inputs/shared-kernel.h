#include <slope/slope.hpp>

#include <cmath>

inline double kernel(double x) { return std::sin(x) * x; }
double gradientInOther(double x);
