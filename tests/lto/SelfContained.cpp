// An -flto build whose targets need no other file (std::vector growth,
// stream output) is differentiated when it is compiled: it links with any
// linker, without the pass.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

double grow(const double *x, int n) {
  std::vector<double> squares;
  for (int i = 0; i < n; ++i)
    squares.push_back(x[i] * x[i]);
  double s = 0;
  for (double e : squares)
    s += std::sin(e);
  std::cout << "";
  return s;
}

int main() {
  double x[3] = {0.1, 0.5, 0.9}, dx[3] = {};
  slope::grad<grow>(slope::dup(x, dx), 3);
  double want = 2 * 0.5 * std::cos(0.25);
  std::printf("self-contained: %g (want %g)\n", dx[1], want);
  return std::fabs(dx[1] - want) < 1e-12 ? 0 : 1;
}
