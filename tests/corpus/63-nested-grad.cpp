// Second order: f calls grad<weighted> on a read-only input (its tape
// holds differentiated values).
#include "check.h"
static double weighted(const double *w, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i] * x[i];
  return s;
}
double f(double t) {
  const double w[3] = {1, 2, 3};
  const double x[3] = {t, 2 * t, t * t};
  double dx[3] = {0, 0, 0};
  slope::grad<weighted>(slope::constant(w), slope::dup(x, dx), 3);
  // f(t) = dx · (1, 2, 2t): the directional derivative of weighted.
  return dx[0] + 2 * dx[1] + 2 * t * dx[2];
}
int main() {
  CHECK_SCALAR(f, 0.6);
  return failures;
}
