#include "check.h"
double f(double x) {
  double y = x * x;
  std::printf("y = %f\n", y);
  return y;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
