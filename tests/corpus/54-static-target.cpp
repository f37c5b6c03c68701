#include "check.h"
static double hidden(double x) {
  double s = 0;
  for (int i = 1; i < 6; ++i)
    s += std::pow(x, i) / i;
  return s;
}
static double viaPointer(double x) { return hidden(x) * 2; }
int main() {
  CHECK_SCALAR(hidden, 0.3);
  CHECK_SCALAR(viaPointer, 0.3);
  return failures;
}
