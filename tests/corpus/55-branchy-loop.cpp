#include "check.h"
double f(double x) {
  double s = 0, y = x;
  for (int i = 0; i < 20; ++i) {
    if (y > 1.0) {
      y = y / 2;
      if (i % 3 == 0)
        continue;
      s += y;
    } else if (y < -1.0) {
      y = -y;
    } else {
      y = y * 1.7 + 0.05;
      if (s > 10)
        break;
    }
    s += std::sqrt(std::fabs(y) + 1);
  }
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  CHECK_SCALAR(f, -2.5);
  return failures;
}
