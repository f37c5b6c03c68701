#include "check.h"
#include <algorithm>
double f(double x) {
  return std::max(x * x, 0.2) + std::min(std::sin(x), x / 2);
}
int main() {
  CHECK_SCALAR(f, 0.3);
  CHECK_SCALAR(f, 0.9);
  return failures;
}
