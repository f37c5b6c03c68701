#include "check.h"
#include <vector>
double f(double x) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i)
    v.push_back(x * i);
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
