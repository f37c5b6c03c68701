#include "check.h"
union Bits {
  double d;
  long long i;
};
double f(double x) {
  Bits b;
  b.d = x;
  b.i ^= 0; // a bit operation on the double's bits
  return b.d * x;
}
int main() {
  CHECK_SCALAR(f, 1.5);
  return failures;
}
