#include "check.h"
double f(double x) {
  double s = x;
  for (int i = 0; i < 9; ++i) {
    switch (i % 4) {
    case 0:
      s = s * 1.1;
      break;
    case 1:
      s = std::sin(s);
      break;
    case 2:
      continue;
    default:
      s += x;
    }
  }
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
