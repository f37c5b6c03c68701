#include "check.h"
double scale = 3.0;
const double table[4] = {1, 2, 3, 4};
double f(double x) { return scale * x * table[2] + table[(int)x & 3]; }
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
