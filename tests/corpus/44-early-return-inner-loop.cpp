#include "check.h"
double f(double x) {
  double s = x;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      s = s * 1.05 + 0.01 * j;
      if (s > 2.0)
        return s * x;
    }
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  CHECK_SCALAR(f, 1.5);
  return failures;
}
