#include "check.h"
#include <complex>
double f(double x) {
  std::complex<double> z(x, 1.0);
  return std::abs(z * z);
}
int main() {
  CHECK_SCALAR(f, 0.7);
  return failures;
}
