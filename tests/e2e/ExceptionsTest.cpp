// Exceptions and derivatives: an exception the primal throws leaves
// grad/derivative like it leaves a plain call, to the caller's handler;
// handlers inside the differentiated function work on both paths.
#include "Expect.h"

#include <slope/slope.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

double checked(double X) {
  if (X > 10)
    throw std::domain_error("too large");
  return X * X;
}

double throwsThrough(double X) { return checked(X) + std::sin(X); }

double catchesInside(double X) {
  try {
    return checked(X) * 2;
  } catch (const std::domain_error &) {
    return X; // the fallback has its own derivative
  }
}

// Recursive (not inlined) and unable to throw: inside a try block it is
// still an ordinary call of its derivative.
double damp(double X, int N) {
  return N == 0 ? X : std::cos(damp(std::sin(X), N - 1));
}
double recursionInsideTry(double X) {
  try {
    return damp(X, 3) * X + checked(X);
  } catch (const std::domain_error &) {
    return X;
  }
}

// At -O0 every call in the scope of a vector may unwind into its
// destructor; the derivative skips those cleanups.
double withCleanups(double X) {
  std::vector<double> Scratch(3, X);
  return checked(Scratch[0]) + Scratch[2];
}

} // namespace

TEST(Exceptions, ThrownThroughTheDerivative) {
  EXPECT_THROW(slope::grad<throwsThrough>(11.0), std::domain_error);
  EXPECT_THROW(slope::derivative<throwsThrough>(slope::dual(11.0, 1.0)),
               std::domain_error);
  check::expectFirstArg<throwsThrough>(1.5, 3 + std::cos(1.5), 1e-15);
}

TEST(Exceptions, HandlersInsideTheFunction) {
  check::expectFirstArg<catchesInside>(1.5, 4 * 1.5, 1e-15);
  check::expectFirstArg<catchesInside>(11.0, 1.0, 1e-15);
}

TEST(Exceptions, RecursiveCallThatCannotThrowInsideATryBlock) {
  check::expectFirstArgFD<recursionInsideTry>(0.6);
  check::expectFirstArg<recursionInsideTry>(11.0, 1.0, 1e-15);
}

TEST(Exceptions, CleanupsOnTheUnwindPath) {
  check::expectFirstArg<withCleanups>(1.5, 2 * 1.5 + 1, 1e-15);
}
