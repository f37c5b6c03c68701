#include "check.h"
double odd(double x, int n);
double even(double x, int n) { return n == 0 ? x : odd(std::sin(x), n - 1); }
double odd(double x, int n) { return even(x * 1.1, n - 1); }
double f(double x) { return even(x, 4); }
int main() {
  CHECK_SCALAR(f, 0.5);
  return failures;
}
