#include "check.h"
double f(double x) {
  long double w = x;
  return static_cast<double>(std::sin(w) * w);
}
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
