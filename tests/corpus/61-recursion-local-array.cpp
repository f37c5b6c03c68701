#include "check.h"
static double walk(double x, int depth, int pick) {
  double table[4] = {x, x * x, std::sin(x), 1 / (1 + x * x)};
  if (depth == 0)
    return table[pick & 3];
  return table[pick & 3] + 0.5 * walk(table[(pick + 1) & 3], depth - 1,
                                      pick + 1);
}
double f(double x) { return walk(x, 5, 0); }
int main() {
  CHECK_SCALAR(f, 0.7);
  return failures;
}
