#include "check.h"
typedef double v2 __attribute__((vector_size(16)));
double f(double x) {
  v2 a = {x, 2 * x};
  v2 b = a * a;
  return b[0] + b[1];
}
int main() {
  CHECK_SCALAR(f, 0.7);
  return failures;
}
