#include "check.h"
constexpr auto f = [](double x) { return x * std::exp(x); };
int main() {
#if __cplusplus >= 202002L
  CHECK_SCALAR(f, 0.3);
#endif
  return failures;
}
