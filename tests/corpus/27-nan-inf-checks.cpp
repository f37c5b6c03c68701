#include "check.h"
double f(double x) {
  double y = std::log(x);
  if (std::isnan(y) || std::isinf(y))
    return 0;
  return y * y;
}
int main() {
  CHECK_SCALAR(f, 1.7);
  return failures;
}
