#include "check.h"
double f(double x) {
  auto g = [x](double y) { return x * y + std::exp(y); };
  return g(x) + g(2 * x);
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
