#include "check.h"
struct Activation {
  double (*forward)(double);
  double scale;
};
static double softsign(double x) { return x / (1 + std::fabs(x)); }
double f(double x) {
  Activation layers[2] = {{std::tanh, 2.0}, {softsign, 0.5}};
  double y = x;
  for (const Activation &a : layers)
    y = a.scale * a.forward(y);
  return y;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
