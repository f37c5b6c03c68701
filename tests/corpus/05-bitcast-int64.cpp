#include "check.h"
#include <cstdint>
#include <cstring>
double f(double x) {
  std::int64_t bits;
  std::memcpy(&bits, &x, 8);
  bits += 1;
  double y;
  std::memcpy(&y, &bits, 8);
  return y * 2;
}
int main() {
  CHECK_SCALAR(f, 1.5);
  return failures;
}
