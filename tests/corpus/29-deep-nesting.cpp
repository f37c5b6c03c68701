#include "check.h"
double f(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 2; ++l)
          s += std::sin(x * (i + 1) + j - k * l);
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
