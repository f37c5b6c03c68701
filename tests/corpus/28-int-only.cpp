#include "check.h"
double f(double x) {
  int a = 3, b = 4;
  for (int i = 0; i < 10; ++i)
    a = (a * b + i) % 17;
  return x * a;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
