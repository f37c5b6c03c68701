#include "check.h"
double f(double x) {
  double y = x;
  int i = 0;
again:
  y = y * 0.9 + std::sin(y);
  if (++i < 5)
    goto again;
  if (y > 2)
    goto big;
  return y;
big:
  return y * y;
}
int main() {
  CHECK_SCALAR(f, 0.4);
  CHECK_SCALAR(f, 2.5);
  return failures;
}
