#include "check.h"
double f(double x) {
  double kept = 0, y = x;
  for (int i = 0; i < 10; ++i) {
    y = std::sin(y) + x;
    if (i == 3)
      kept = y;
  }
  return kept * y;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
