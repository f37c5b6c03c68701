#include "check.h"
struct Floats {
  float a, b;
};
static Floats halve(float x, int n) {
  if (n == 0)
    return {x, x * x};
  Floats r = halve(x * 0.5f, n - 1);
  return {r.a + r.b, r.b * 2};
}
double f(double x) {
  Floats r = halve(static_cast<float>(x), 3);
  return static_cast<double>(r.a) * 1e-3; // float precision, scaled
}
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
