#include "check.h"
struct Model {
  static double energy(double x) { return std::cosh(x) - 1; }
};
double f(double x) { return Model::energy(x); }
int main() {
  CHECK_SCALAR(Model::energy, 0.3);
  CHECK_SCALAR(f, 0.3);
  return failures;
}
