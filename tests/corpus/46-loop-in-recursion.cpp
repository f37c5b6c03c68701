#include "check.h"
static double level(double x, int depth) {
  if (depth == 0)
    return x;
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += std::cos(x * (i + 1));
  return level(s * 0.3, depth - 1) + x;
}
double f(double x) { return level(x, 3); }
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
