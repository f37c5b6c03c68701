#include "check.h"
struct V {
  double a, b;
};
static V add(V p, V q) { return {p.a + q.a, p.b * q.b}; }
double f(double x) {
  V p{x, x * x}, q{std::sin(x), 2.0};
  V r = add(p, q);
  return r.a * r.b;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
