#include "check.h"
double f(double x) {
  float acc = 0;
  for (int i = 0; i < 5; ++i)
    acc += static_cast<float>(x) * i;
  return acc;
}
int main() {
  double ref = 10.0;
  expectClose(slope::grad<f>(0.3), ref, "float accumulator reverse");
  return failures;
}
