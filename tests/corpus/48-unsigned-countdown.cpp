#include "check.h"
double f(double x) {
  double s = 1;
  for (unsigned i = 7; i-- > 0;)
    s = s * x + i;
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
