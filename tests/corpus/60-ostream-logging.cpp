#include "check.h"
#include <iostream>
double f(double x) {
  double y = std::exp(x) - x;
  std::cout << "f(" << x << ") = " << y << '\n';
  return y * y;
}
int main() {
  CHECK_SCALAR(f, 0.4);
  return failures;
}
