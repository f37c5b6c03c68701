#include "check.h"
#include <stdexcept>
double f(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return std::sqrt(x) * x;
}
int main() {
  CHECK_SCALAR(f, 2.0);
  return failures;
}
