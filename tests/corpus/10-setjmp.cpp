#include "check.h"
#include <csetjmp>
static std::jmp_buf env;
double f(double x) {
  if (setjmp(env) == 0)
    return x * x;
  return 0;
}
int main() {
  CHECK_SCALAR(f, 0.6);
  return failures;
}
