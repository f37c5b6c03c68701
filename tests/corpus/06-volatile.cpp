#include "check.h"
double f(double x) {
  volatile double v = x * 2;
  return v * v;
}
int main() {
  CHECK_SCALAR(f, 0.8);
  return failures;
}
