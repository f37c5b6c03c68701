// GoogleTest helpers: check Slope's derivatives of a function against
// central finite differences, and forward against reverse mode.
//
//   SLOPE_EXPECT_GRADIENT(f, x, slope::dup(a, da, n), k);
//
// takes the arguments grad<f> takes (arrays as dup(x, dx, n) with their
// extent). The objective is f's result (when it is floating-point) plus
// Σ wᵢ·outᵢ over the final contents of every dup'd array, for random
// weights w; its gradient with respect to every active scalar and every
// array element is compared with central differences, and forward mode
// with reverse mode by the dot-product test ⟨J·v, w⟩ = ⟨v, Jᵀ·w⟩ for a
// random direction v. The caller's data is not changed. With every pointer
// given its extent, an optimized build may also run a derivative made for
// arrays that do not overlap (see the README): both are checked, the second
// by calling grad<f> once more without the extents.
#ifndef SLOPE_TESTING_HPP
#define SLOPE_TESTING_HPP

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace slope::testing {

/// A component passes when |AD − FD| ≤ rel·max(|AD|, |FD|) + abs.
struct Tolerance {
  double rel = 1e-5;
  double abs = 1e-8;
};

namespace detail {

template <class T> struct IsDupArg : std::false_type {};
template <class T> struct IsDupArg<Dup<T>> : std::true_type {};

/// One argument as check_gradient holds it: arrays by value (a copy of
/// the caller's data), everything else as given.
template <class A> struct Slot {
  using D = std::decay_t<A>;
  static constexpr bool Active = std::is_floating_point_v<D>;
  static constexpr bool Array = IsDupArg<D>::value;
  D given;
  explicit Slot(const A &a) : given(a) {}
};

template <class T> struct Slot<Dup<T>> {
  using Element = std::remove_const_t<T>;
  static_assert(std::is_floating_point_v<Element>,
                "slope::testing: dup'd arrays must hold float or double");
  static constexpr bool Active = false;
  static constexpr bool Array = true;
  std::vector<Element> values;
  explicit Slot(const Dup<T> &d)
      : values(d.primal, d.primal + std::max<std::size_t>(d.extent, 1)) {}
};

/// One input of the objective (an active scalar or an array element) with
/// its derivative by Slope and by central differences.
struct Component {
  std::string name;
  double ad = 0, fd = 0;
};

template <auto F, class... A> class Checker {
public:
  explicit Checker(const A &...args) : slots(Slot<A>(args)...) {}

  ::testing::AssertionResult run(Tolerance tol) {
    std::mt19937 random(20261202);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    outputWeights.clear();
    forEachArray([&](auto &slot, std::size_t) {
      for (std::size_t i = 0; i < slot.values.size(); ++i)
        outputWeights.push_back(uniform(random));
    });
    std::vector<Component> components = reverseGradient();
    differences(components);
    std::vector<double> direction;
    for (std::size_t i = 0; i < components.size(); ++i)
      direction.push_back(uniform(random));
    double forward = forwardAlong(direction), adjoint = 0;
    for (std::size_t i = 0; i < components.size(); ++i)
      adjoint += direction[i] * components[i].ad;
    std::vector<Component> plain = reverseGradient</*WithExtents=*/false>();
    for (std::size_t i = 0; i < plain.size(); ++i) {
      plain[i].name += " (called without extents)";
      plain[i].fd = components[i].fd;
    }
    components.insert(components.end(), plain.begin(), plain.end());
    return report(components, tol, forward, adjoint);
  }

private:
  // (C++17 has no lambdas in decltype.)
  struct GradCall {
    template <class... X> auto operator()(X &&...x) const {
      return slope::grad<F>(std::forward<X>(x)...);
    }
  };
  struct DerivativeCall {
    template <class... X> auto operator()(X &&...x) const {
      return slope::derivative<F>(std::forward<X>(x)...);
    }
  };
  using Slots = std::tuple<Slot<A>...>;
  static constexpr std::size_t N = sizeof...(A);
  Slots slots;
  std::vector<double> outputWeights;

  template <class Fn> void forEachArray(Fn fn) {
    std::size_t k = 0;
    forEachIndex([&](auto I) {
      auto &slot = std::get<I>(slots);
      if constexpr (std::decay_t<decltype(slot)>::Array)
        fn(slot, k++);
    });
  }
  template <class Fn> void forEachIndex(Fn fn) {
    forEachIndexImpl(fn, std::make_index_sequence<N>{});
  }
  template <class Fn, std::size_t... I>
  void forEachIndexImpl(Fn fn, std::index_sequence<I...>) {
    (fn(std::integral_constant<std::size_t, I>{}), ...);
  }

  std::vector<double> scalarValues() {
    std::vector<double> scalars(N, 0.0);
    forEachIndex([&](auto I) {
      auto &slot = std::get<I>(slots);
      if constexpr (std::decay_t<decltype(slot)>::Active)
        scalars[I] = static_cast<double>(slot.given);
    });
    return scalars;
  }

  /// Element-typed copies of the arrays and a matching set of shadows.
  auto typedCopies() {
    return std::apply(
        [](auto &...slot) { return std::tuple{arrayOf(slot)...}; }, slots);
  }
  template <class S> static auto arrayOf(S &slot) {
    if constexpr (S::Array)
      return slot.values;
    else
      return 0;
  }

  template <bool WithExtents = true> std::vector<Component> reverseGradient() {
    auto data = typedCopies();
    auto shadows = typedCopies();
    std::size_t w = 0;
    forEachIndex([&](auto I) {
      if constexpr (Slot<std::tuple_element_t<I, std::tuple<A...>>>::Array)
        for (auto &x : std::get<I>(shadows))
          x = static_cast<std::decay_t<decltype(x)>>(outputWeights[w++]);
    });
    auto args =
        gradArgs<WithExtents>(data, shadows, std::make_index_sequence<N>{});
    using Result = decltype(std::apply(GradCall{}, args));
    std::vector<double> scalarGrads;
    if constexpr (std::is_void_v<Result>) {
      std::apply(GradCall{}, args);
    } else {
      Result r = std::apply(GradCall{}, args);
      collect(r, scalarGrads);
    }
    std::vector<Component> components;
    std::size_t next = 0;
    forEachIndex([&](auto I) {
      using S = Slot<std::tuple_element_t<I, std::tuple<A...>>>;
      if constexpr (S::Active)
        components.push_back(
            {"argument " + std::to_string(I + 1), scalarGrads[next++], 0});
      if constexpr (S::Array) {
        auto &shadow = std::get<I>(shadows);
        for (std::size_t i = 0; i < shadow.size(); ++i)
          components.push_back({"argument " + std::to_string(I + 1) + "[" +
                                    std::to_string(i) + "]",
                                static_cast<double>(shadow[i]), 0});
      }
    });
    return components;
  }

  template <class R> static void collect(const R &r, std::vector<double> &out) {
    if constexpr (std::is_floating_point_v<R>)
      out.push_back(static_cast<double>(r));
    else
      std::apply(
          [&](const auto &...g) {
            (out.push_back(static_cast<double>(g)), ...);
          },
          r);
  }

  template <bool WithExtents, class Data, std::size_t... I>
  auto gradArgs(Data &data, Data &shadows, std::index_sequence<I...>) {
    return std::tuple{gradArg<WithExtents, I>(data, shadows)...};
  }
  template <bool WithExtents, std::size_t I, class Data>
  auto gradArg(Data &data, Data &shadows) {
    auto &slot = std::get<I>(slots);
    using S = std::decay_t<decltype(slot)>;
    if constexpr (S::Array)
      return slope::dup(std::get<I>(data).data(), std::get<I>(shadows).data(),
                        WithExtents ? std::get<I>(data).size() : 0);
    else
      return slot.given;
  }

  /// A step for central differences in type T around x: ∛ε·max(1, |x|).
  template <class T> static double step(double X) {
    return std::cbrt(static_cast<double>(std::numeric_limits<T>::epsilon())) *
           std::max(1.0, std::fabs(X));
  }

  /// Central differences of the objective for every component; \p Perturb
  /// moves one input by an offset (in the input's own type) and returns
  /// the offset actually taken.
  void differences(std::vector<Component> &components) {
    std::vector<double> scalars = scalarValues();
    std::size_t c = 0;
    auto difference = [&](double h, auto perturb) {
      auto evaluate = [&](double offset, double &taken) {
        std::vector<double> s = scalars;
        auto data = typedCopies();
        taken = perturb(s, data, offset);
        return objectiveTyped(s, data);
      };
      double up, down;
      double plus = evaluate(h, up), minus = evaluate(-h, down);
      components[c++].fd = (plus - minus) / (up - down);
    };
    forEachIndex([&](auto I) {
      using S = Slot<std::tuple_element_t<I, std::tuple<A...>>>;
      if constexpr (S::Active) {
        using T = typename S::D;
        difference(step<T>(scalars[I]),
                   [&](std::vector<double> &s, auto &, double h) {
                     T moved = static_cast<T>(s[I] + h);
                     double taken = static_cast<double>(moved) - s[I];
                     s[I] = static_cast<double>(moved);
                     return taken;
                   });
      }
      if constexpr (S::Array) {
        using T = typename S::Element;
        const auto &values = std::get<I>(slots).values;
        for (std::size_t i = 0; i < values.size(); ++i)
          difference(step<T>(values[i]), [&, i](std::vector<double> &,
                                                auto &data, double h) {
            T &x = std::get<I>(data)[i];
            T before = x;
            x = static_cast<T>(x + h);
            return static_cast<double>(x) - static_cast<double>(before);
          });
      }
    });
  }

  template <class Data>
  double objectiveTyped(const std::vector<double> &scalars, Data &data) {
    auto args = primalArgs(scalars, data, std::make_index_sequence<N>{});
    double value = 0;
    if constexpr (std::is_void_v<decltype(std::apply(F, args))>)
      std::apply(F, args);
    else
      value = static_cast<double>(std::apply(F, args));
    return value + weighted(data);
  }

  /// Σ wᵢ·aᵢ over the arrays of \p Arrays (values or tangents), in the
  /// order outputWeights has them.
  template <class Data> double weighted(const Data &Arrays) {
    double Sum = 0;
    std::size_t w = 0;
    forEachIndex([&](auto I) {
      if constexpr (Slot<std::tuple_element_t<I, std::tuple<A...>>>::Array)
        for (auto x : std::get<I>(Arrays))
          Sum += outputWeights[w++] * static_cast<double>(x);
    });
    return Sum;
  }
  template <class Data, std::size_t... I>
  auto primalArgs(const std::vector<double> &scalars, Data &data,
                  std::index_sequence<I...>) {
    return std::tuple{plainArg<I>(scalars, data)...};
  }
  template <std::size_t I, class Data>
  auto plainArg(const std::vector<double> &scalars, Data &data) {
    auto &slot = std::get<I>(slots);
    using S = std::decay_t<decltype(slot)>;
    if constexpr (S::Array)
      return std::get<I>(data).data();
    else if constexpr (S::Active)
      return static_cast<typename S::D>(scalars[I]);
    else if constexpr (slope::detail::IsConstant<typename S::D>::value)
      return slot.given.value;
    else
      return slot.given;
  }

  /// ⟨J·v, w⟩: forward mode along v, weighted like the objective.
  double forwardAlong(const std::vector<double> &direction) {
    auto data = typedCopies();
    auto tangents = typedCopies();
    std::size_t d = 0;
    std::vector<double> scalarTangents(N, 0.0);
    forEachIndex([&](auto I) {
      using S = Slot<std::tuple_element_t<I, std::tuple<A...>>>;
      if constexpr (S::Active)
        scalarTangents[I] = direction[d++];
      if constexpr (S::Array)
        for (auto &t : std::get<I>(tangents))
          t = static_cast<std::decay_t<decltype(t)>>(direction[d++]);
    });
    auto args = forwardArgs(data, tangents, scalarTangents,
                            std::make_index_sequence<N>{});
    double value = 0;
    using Result = decltype(std::apply(DerivativeCall{}, args));
    if constexpr (std::is_void_v<Result>)
      std::apply(DerivativeCall{}, args);
    else
      value = static_cast<double>(std::apply(DerivativeCall{}, args));
    return value + weighted(tangents);
  }
  template <class Data, std::size_t... I>
  auto forwardArgs(Data &data, Data &tangents,
                   const std::vector<double> &scalarTangents,
                   std::index_sequence<I...>) {
    return std::tuple{forwardArg<I>(data, tangents, scalarTangents)...};
  }
  template <std::size_t I, class Data>
  auto forwardArg(Data &data, Data &tangents,
                  const std::vector<double> &scalarTangents) {
    auto &slot = std::get<I>(slots);
    using S = std::decay_t<decltype(slot)>;
    if constexpr (S::Array)
      return slope::dup(std::get<I>(data).data(), std::get<I>(tangents).data(),
                        std::get<I>(data).size());
    else if constexpr (S::Active)
      return slope::dual(slot.given, scalarTangents[I]);
    else
      return slot.given;
  }

  static bool close(double a, double b, Tolerance tol) {
    return std::fabs(a - b) <=
           tol.rel * std::max(std::fabs(a), std::fabs(b)) + tol.abs;
  }

  ::testing::AssertionResult report(std::vector<Component> &components,
                                    Tolerance tol, double forward,
                                    double adjoint) {
    std::vector<const Component *> wrong;
    for (const Component &c : components)
      if (!close(c.ad, c.fd, tol))
        wrong.push_back(&c);
    bool dotOk = close(forward, adjoint, tol);
    if (wrong.empty() && dotOk)
      return ::testing::AssertionSuccess();
    auto relative = [](const Component *c) {
      return std::fabs(c->ad - c->fd) /
             std::max({std::fabs(c->ad), std::fabs(c->fd), 1e-300});
    };
    std::sort(wrong.begin(), wrong.end(),
              [&](auto *a, auto *b) { return relative(a) > relative(b); });
    std::ostringstream out;
    out.precision(12);
    if (!wrong.empty()) {
      out << wrong.size() << " of " << components.size()
          << " gradient components differ from central differences; worst:";
      for (std::size_t i = 0; i < wrong.size() && i < 5; ++i)
        out << "\n  " << wrong[i]->name << ": AD " << wrong[i]->ad << ", FD "
            << wrong[i]->fd << ", relative error " << relative(wrong[i]);
    }
    if (!dotOk)
      out << (wrong.empty() ? "" : "\n")
          << "forward and reverse mode disagree: <J v, w> = " << forward
          << " but <v, J^T w> = " << adjoint;
    return ::testing::AssertionFailure() << out.str();
  }
};

} // namespace detail

/// Checks grad<F>(args...) against central differences and derivative<F>
/// against grad<F>; see the top of this file.
template <auto F, class... A>
::testing::AssertionResult check_gradient(Tolerance tol, const A &...args) {
  return detail::Checker<F, A...>(args...).run(tol);
}

template <auto F, class... A>
::testing::AssertionResult check_gradient(const A &...args) {
  return check_gradient<F>(Tolerance{}, args...);
}

} // namespace slope::testing

#define SLOPE_EXPECT_GRADIENT(F, ...)                                          \
  EXPECT_TRUE(::slope::testing::check_gradient<F>(__VA_ARGS__))
#define SLOPE_ASSERT_GRADIENT(F, ...)                                          \
  ASSERT_TRUE(::slope::testing::check_gradient<F>(__VA_ARGS__))

#endif
