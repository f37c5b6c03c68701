// Second order without loops: f is the first derivative of g.
#include "check.h"
static double g(double x) { return std::sin(x) * x * x; }
double f(double x) { return slope::grad<g>(x); }
int main() {
  CHECK_SCALAR(f, 0.6);
  return failures;
}
