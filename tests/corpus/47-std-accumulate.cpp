#include "check.h"
#include <array>
#include <numeric>
double f(double x) {
  std::array<double, 6> a;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = std::exp(-x * i);
  return std::accumulate(a.begin(), a.end(), 0.0,
                         [](double s, double v) { return s + v * v; });
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
