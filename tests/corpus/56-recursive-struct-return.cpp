#include "check.h"
struct Pair {
  double a, b;
};
static Pair spin(double x, int n) {
  if (n == 0)
    return {std::cos(x), std::sin(x)};
  Pair p = spin(x * 0.5, n - 1);
  return {p.a * p.a - p.b * p.b, 2 * p.a * p.b};
}
double f(double x) {
  Pair p = spin(x, 4);
  return p.a - 2 * p.b;
}
int main() {
  CHECK_SCALAR(f, 0.9);
  return failures;
}
