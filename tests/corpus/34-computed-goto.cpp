#include "check.h"
double f(double x) {
  static void *labels[] = {&&a, &&b};
  int k = x > 0.5;
  goto *labels[k];
a:
  return x * x;
b:
  return x * 3;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  CHECK_SCALAR(f, 0.9);
  return failures;
}
