#include "check.h"
namespace physics {
inline namespace v1 {
inline double spring(double x) { return 0.5 * 4.0 * x * x; }
} // namespace v1
} // namespace physics
int main() {
  CHECK_SCALAR(physics::spring, 0.3);
  return failures;
}
