// Checks shared by the end-to-end tests: both modes of Slope against a
// reference derivative.
#ifndef SLOPE_TESTS_E2E_EXPECT_H
#define SLOPE_TESTS_E2E_EXPECT_H

#include "Check.h"

#include <slope/slope.hpp>

namespace check {

/// grad<F> and derivative<F> with respect to the first argument X (the
/// only active one) match \p Reference.
template <auto F, class... Rest>
void expectFirstArg(double X, long double Reference, double Tol, Rest... rest) {
  double Reverse = slope::grad<F>(X, rest...);
  double Forward = slope::derivative<F>(slope::dual(X, 1.0), rest...);
  EXPECT_TRUE(near(Reverse, Reference, Tol)) << "reverse at " << X;
  EXPECT_TRUE(near(Forward, Reference, Tol)) << "forward at " << X;
}

/// The same against central differences of F.
template <auto F, class... Rest> void expectFirstArgFD(double X, Rest... rest) {
  auto G = [&](double x) { return F(x, rest...); };
  expectFirstArg<F>(X, centralDifference<0>(G, X), 1e-7, rest...);
}

} // namespace check

#endif
