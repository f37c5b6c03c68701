#include "check.h"
static double pick(double x) {
  static void *labels[] = {&&a, &&b};
  goto *labels[x > 0.5];
a:
  return x * x;
b:
  return x * 3;
}
double f(double x) { return pick(x) + x; }
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
