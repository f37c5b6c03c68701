#include "check.h"
template <class T, int N> T poly(T x) {
  T r = 0;
  for (int i = N; i >= 0; --i)
    r = r * x + i;
  return r;
}
int main() {
  CHECK_SCALAR((poly<double, 5>), 0.3);
  return failures;
}
