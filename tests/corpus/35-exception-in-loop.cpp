#include "check.h"
#include <stdexcept>
static double checked(double v) {
  if (v > 1e6)
    throw std::overflow_error("big");
  return v;
}
double f(double x) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    try {
      s += checked(x * i);
    } catch (...) {
      s = 0;
    }
  }
  return s * x;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
