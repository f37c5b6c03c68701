#include "check.h"
double f(double x) {
  double y = x;
  while (true) {
    y = y * 0.5 + 0.1;
    if (y < 0.2 + 1e-12)
      break;
  }
  return y * x;
}
int main() {
  CHECK_SCALAR(f, 3.0);
  return failures;
}
