#include "check.h"
#include <string>
double f(double x) {
  std::string label = "x=" + std::to_string(x);
  return x * x + (label.size() > 100 ? 1 : 0);
}
int main() {
  CHECK_SCALAR(f, 1.25);
  return failures;
}
