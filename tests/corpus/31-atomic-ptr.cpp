#include "check.h"
#include <atomic>
std::atomic<int> counter;
double f(double x) {
  counter.fetch_add(1);
  return x * x;
}
int main() {
  CHECK_SCALAR(f, 0.3);
  return failures;
}
