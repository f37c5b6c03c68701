// Reference derivatives for the end-to-end tests: central finite differences
// in long double, and a tolerance check that reports both values.
#ifndef SLOPE_TESTS_E2E_CHECK_H
#define SLOPE_TESTS_E2E_CHECK_H

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace check {

/// ∂f/∂x_I at X by a central difference with a step scaled to x_I.
template <std::size_t I, class F, class... T>
long double centralDifference(F f, T... x) {
  std::array<long double, sizeof...(T)> Args{static_cast<long double>(x)...};
  using Real = std::common_type_t<T...>;
  long double Step = std::cbrt(static_cast<long double>(
                         std::numeric_limits<Real>::epsilon())) *
                     std::max<long double>(1.0L, std::fabs(Args[I]));
  auto Eval = [&](long double Offset) {
    auto Shifted = Args;
    Shifted[I] += Offset;
    // Round the shifted point to the argument type and use the step that
    // was actually taken.
    return std::apply(
        [&](auto... A) {
          return static_cast<long double>(f(static_cast<T>(A)...));
        },
        Shifted);
  };
  auto Actual = [&](long double Offset) {
    return static_cast<long double>(static_cast<Real>(Args[I] + Offset)) -
           Args[I];
  };
  return (Eval(Step) - Eval(-Step)) / (Actual(Step) - Actual(-Step));
}

/// |a - b| <= Rel * max(|a|, |b|) + Abs.
inline ::testing::AssertionResult near(long double Actual, long double Expected,
                                       long double Rel, long double Abs = 0) {
  long double Scale = std::max(std::fabs(Actual), std::fabs(Expected));
  if (std::fabs(Actual - Expected) <= Rel * Scale + Abs)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "AD " << static_cast<double>(Actual) << " vs reference "
         << static_cast<double>(Expected);
}

/// ∂f/∂x_i for every element of the array \p X of \p N doubles, where f
/// is called as F(X, rest...) on a copy; central differences.
template <class F, class... Rest>
std::vector<double> arrayDifferences(F f, const double *X, int N,
                                     Rest... rest) {
  std::vector<double> Grad(N);
  for (int I = 0; I < N; ++I) {
    std::vector<double> Plus(X, X + N), Minus(X, X + N);
    double Step = 1e-5 * std::max(1.0, std::fabs(X[I]));
    Plus[I] += Step;
    Minus[I] -= Step;
    double Taken = Plus[I] - Minus[I]; // f may overwrite its input
    Grad[I] = (f(Plus.data(), rest...) - f(Minus.data(), rest...)) / Taken;
  }
  return Grad;
}

/// \p N smooth, distinct values of size about \p Scale: test inputs.
inline std::vector<double> wave(int N, double Scale) {
  std::vector<double> V(N);
  for (int I = 0; I < N; ++I)
    V[I] = Scale * std::cos(0.7 * I + 0.2);
  return V;
}

template <class T> constexpr long double fdTolerance() {
  return std::is_same_v<T, float> ? 2e-3L : 1e-7L;
}

} // namespace check

#endif
