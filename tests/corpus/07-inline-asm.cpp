#include "check.h"
double f(double x) {
  double y = x;
  asm volatile("" : "+x"(y));
  return y * y;
}
int main() {
  CHECK_SCALAR(f, 0.8);
  return failures;
}
