#include "check.h"
static double square(double v) { return v * v; }
static double cube(double v) { return v * v * v; }
double (*volatile pick)(double) = square;
double f(double x) { return pick(x) + cube(x); }
int main() {
  CHECK_SCALAR(f, 0.8);
  return failures;
}
