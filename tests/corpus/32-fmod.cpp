#include "check.h"
double f(double x) { return std::fmod(x * 3, 1.0) + std::remainder(x, 0.3); }
int main() {
  CHECK_SCALAR(f, 0.41);
  return failures;
}
