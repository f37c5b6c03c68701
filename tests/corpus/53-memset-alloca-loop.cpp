#include "check.h"
#include <cstring>
double f(double x) {
  double buf[8];
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    std::memset(buf, 0, sizeof buf);
    for (int i = 0; i < 8; i += k + 1)
      buf[i] = x * (i + k);
    for (int i = 0; i < 8; ++i)
      s += buf[i] * buf[i];
  }
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
