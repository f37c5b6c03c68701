#include "check.h"
#include <stdexcept>
static double guarded(double x) {
  if (x < 0)
    throw std::invalid_argument("negative");
  return std::sqrt(x) * x;
}
double f(double x) { return guarded(x) + x; }
int main() {
  CHECK_SCALAR(f, 2.0);
  try {
    slope::grad<f>(-1.0);
    ++failures; // must not get here
  } catch (const std::invalid_argument &) {
  }
  return failures;
}
