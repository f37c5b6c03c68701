#include "check.h"
struct Pair {
  double a, b;
};
static Pair both(double x) { return {x * x, std::sin(x)}; }
double f(double x) {
  Pair p = both(x);
  return p.a + p.b;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
