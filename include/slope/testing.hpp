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
// random direction v. A component whose central difference disagrees is
// differenced again with a step 16 times smaller before it counts as
// wrong: a branch of f that flips within the first step (a jump that no
// derivative sees) does not fail the check, while a wrong derivative
// disagrees at both steps. The caller's data is not changed. With every pointer
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

/// The inputs of the objective, one vector per argument of F: an active
/// scalar has one entry, a dup'd array its elements, any other argument
/// none. Everything is held as double; float inputs are rounded back to
/// float wherever they are moved, so no value is ever off by a rounding.
using Values = std::vector<std::vector<double>>;

/// One input of the objective (an active scalar or an array element) with
/// its derivative by Slope and by central differences.
struct Component {
  std::string name;
  double ad = 0, fd = 0;
};

/// The part of check_gradient that does not depend on F: random weights
/// and directions, central differences, the dot-product test and the
/// report. It is compiled once per file instead of once per function
/// checked, which roughly halves the time a test file takes to compile;
/// Checker below supplies the three typed calls (F, grad<F>,
/// derivative<F>).
class CheckerCore {
public:
  virtual ~CheckerCore() = default;

  [[gnu::noinline]] ::testing::AssertionResult run(Tolerance tol) {
    std::mt19937 random(20261202);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    weights.assign(inputs.size(), {});
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].kind == Kind::Array)
        for (std::size_t e = 0; e < given[i].size(); ++e)
          weights[i].push_back(uniform(random));
    std::vector<Component> components = gradient(/*WithExtents=*/true);
    differences(components, tol);
    Values direction = shapeOfInputs();
    std::vector<double> flat;
    for (std::vector<double> &input : direction)
      for (double &d : input)
        flat.push_back(d = uniform(random));
    double forwardValue = forward(direction) + weighted(direction);
    double adjoint = 0;
    for (std::size_t c = 0; c < components.size(); ++c)
      adjoint += flat[c] * components[c].ad;
    std::vector<Component> plain = gradient(/*WithExtents=*/false);
    for (std::size_t c = 0; c < plain.size(); ++c) {
      plain[c].name += " (called without extents)";
      plain[c].fd = components[c].fd;
    }
    components.insert(components.end(), plain.begin(), plain.end());
    return report(components, tol, forwardValue, adjoint);
  }

protected:
  enum class Kind { Other, Scalar, Array };
  struct Input {
    Kind kind;
    bool single;    // float: moved values are rounded to float
    double epsilon; // of the input's own type
  };
  std::vector<Input> inputs;
  Values given; // the caller's values (copied)

  /// Runs F on \p v; arrays hold their final contents afterwards. Returns
  /// F's result, or 0 for a void F.
  virtual double primal(Values &v) = 0;
  /// Runs grad<F> at the given values. \p adjoints holds the seeds of the
  /// arrays and receives their shadows and the scalars' gradients.
  virtual void reverse(Values &adjoints, bool withExtents) = 0;
  /// Runs derivative<F> along \p tangents (the arrays' tangents are
  /// replaced by the output tangents); returns the tangent of F's result.
  virtual double forward(Values &tangents) = 0;

  template <class T> void addScalar(T value) {
    inputs.push_back({Kind::Scalar, std::is_same_v<T, float>,
                      double(std::numeric_limits<T>::epsilon())});
    given.push_back({static_cast<double>(value)});
  }
  template <class T> void addArray(const T *values, std::size_t n) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "slope::testing: dup'd arrays must hold float or double");
    inputs.push_back({Kind::Array, std::is_same_v<T, float>,
                      double(std::numeric_limits<T>::epsilon())});
    given.emplace_back(values, values + n);
  }
  void addOther() {
    inputs.push_back({Kind::Other, false, 0});
    given.emplace_back();
  }
  /// Stores the gradients grad<F> returned in the scalars' entries.
  void setScalarGradients(Values &adjoints, const std::vector<double> &g) {
    std::size_t next = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].kind == Kind::Scalar)
        adjoints[i] = {next < g.size() ? g[next++] : 0.0};
  }

private:
  Values weights; // of the arrays' final contents in the objective

  Values shapeOfInputs() const {
    Values shape(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
      shape[i].assign(given[i].size(), 0.0);
    return shape;
  }

  /// Σ wᵢ·aᵢ over the arrays of \p v (values or tangents).
  double weighted(const Values &v) const {
    double sum = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].kind == Kind::Array)
        for (std::size_t e = 0; e < v[i].size(); ++e)
          sum += weights[i][e] * v[i][e];
    return sum;
  }

  double objective(Values v) {
    double value = primal(v);
    return value + weighted(v);
  }

  std::vector<Component> gradient(bool withExtents) {
    Values adjoints = weights;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].kind == Kind::Scalar)
        adjoints[i] = {0.0};
    reverse(adjoints, withExtents);
    std::vector<Component> components;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      std::string name = "argument " + std::to_string(i + 1);
      if (inputs[i].kind == Kind::Scalar)
        components.push_back({name, adjoints[i][0], 0});
      if (inputs[i].kind == Kind::Array)
        for (std::size_t e = 0; e < adjoints[i].size(); ++e)
          components.push_back(
              {name + "[" + std::to_string(e) + "]", adjoints[i][e], 0});
    }
    return components;
  }

  /// Central differences of the objective for every component, with a
  /// step of ∛ε·max(1, |x|) in the input's own type, or 16 times smaller
  /// where the first disagrees with the component's derivative and the
  /// second does not (f jumps within the first step).
  void differences(std::vector<Component> &components, Tolerance tol) {
    std::size_t c = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].kind == Kind::Other)
        continue;
      for (std::size_t e = 0; e < given[i].size(); ++e) {
        double x = given[i][e];
        double h = std::cbrt(inputs[i].epsilon) * std::max(1.0, std::fabs(x));
        auto evaluate = [&](double offset, double &taken) {
          Values v = given;
          double moved = x + offset;
          if (inputs[i].single)
            moved = static_cast<float>(moved);
          v[i][e] = moved;
          taken = moved - x;
          return objective(std::move(v));
        };
        auto central = [&](double step) {
          double up, down;
          double plus = evaluate(step, up), minus = evaluate(-step, down);
          return (plus - minus) / (up - down);
        };
        Component &component = components[c++];
        component.fd = central(h);
        if (!close(component.ad, component.fd, tol)) {
          double shorter = central(h / 16);
          if (close(component.ad, shorter, tol))
            component.fd = shorter;
        }
      }
    }
  }

  static bool close(double a, double b, Tolerance tol) {
    return std::fabs(a - b) <=
           tol.rel * std::max(std::fabs(a), std::fabs(b)) + tol.abs;
  }

  static ::testing::AssertionResult report(std::vector<Component> &components,
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

template <class T> struct IsDupArg : std::false_type {};
template <class T> struct IsDupArg<Dup<T>> : std::true_type {};

/// The typed calls of check_gradient<F> for arguments of types A...
template <auto F, class... A> class Checker final : public CheckerCore {
public:
  explicit Checker(const A &...args) : args(args...) { (describe(args), ...); }

private:
  static constexpr std::size_t N = sizeof...(A);
  using Indices = std::make_index_sequence<N>;
  template <std::size_t I>
  using Arg = std::decay_t<std::tuple_element_t<I, std::tuple<A...>>>;
  template <std::size_t I> static constexpr bool isArray() {
    return IsDupArg<Arg<I>>::value;
  }
  template <std::size_t I> static constexpr bool isScalar() {
    return std::is_floating_point_v<Arg<I>>;
  }
  std::tuple<A...> args;

  template <class D> void describe(const D &arg) {
    if constexpr (std::is_floating_point_v<D>)
      addScalar(arg);
    else if constexpr (IsDupArg<D>::value)
      addArray(static_cast<const std::remove_const_t<
                   std::remove_pointer_t<decltype(arg.primal)>> *>(arg.primal),
               std::max<std::size_t>(arg.extent, 1));
    else
      addOther();
  }

  /// Element-typed copies of the arrays of \p v (0 for other arguments).
  template <std::size_t I> auto typedArray(const Values &v) {
    if constexpr (isArray<I>())
      return std::vector<
          std::remove_const_t<std::remove_pointer_t<decltype(Arg<I>::primal)>>>(
          v[I].begin(), v[I].end());
    else
      return 0;
  }
  template <std::size_t... I>
  auto typedArrays(const Values &v, std::index_sequence<I...>) {
    return std::tuple{typedArray<I>(v)...};
  }
  template <class Data, std::size_t... I>
  static void storeArrays(const Data &data, Values &v,
                          std::index_sequence<I...>) {
    auto store = [&](auto &into, const auto &array) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(array)>, int>)
        into.assign(array.begin(), array.end());
    };
    (store(v[I], std::get<I>(data)), ...);
  }

  template <std::size_t I, class Data>
  auto plainArg(const Values &v, Data &data) {
    if constexpr (isArray<I>())
      return std::get<I>(data).data();
    else if constexpr (isScalar<I>())
      return static_cast<Arg<I>>(v[I][0]);
    else if constexpr (slope::detail::IsConstant<Arg<I>>::value)
      return std::get<I>(args).value;
    else
      return std::get<I>(args);
  }
  template <std::size_t... I>
  double primalCall(Values &v, std::index_sequence<I...> indices) {
    auto data = typedArrays(v, indices);
    double value = 0;
    if constexpr (std::is_void_v<decltype(F(plainArg<I>(v, data)...))>)
      F(plainArg<I>(v, data)...);
    else
      value = static_cast<double>(F(plainArg<I>(v, data)...));
    storeArrays(data, v, indices);
    return value;
  }
  double primal(Values &v) override { return primalCall(v, Indices{}); }

  template <std::size_t I, class Data>
  auto gradArg(Data &data, Data &shadows, bool withExtents) {
    if constexpr (isArray<I>())
      return slope::dup(std::get<I>(data).data(), std::get<I>(shadows).data(),
                        withExtents ? std::get<I>(data).size() : 0);
    else
      return std::get<I>(args);
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
  template <std::size_t... I>
  void reverseCall(Values &adjoints, bool withExtents,
                   std::index_sequence<I...> indices) {
    auto data = typedArrays(given, indices);
    auto shadows = typedArrays(adjoints, indices);
    using Result =
        decltype(slope::grad<F>(gradArg<I>(data, shadows, withExtents)...));
    std::vector<double> scalarGradients;
    if constexpr (std::is_void_v<Result>) {
      slope::grad<F>(gradArg<I>(data, shadows, withExtents)...);
    } else {
      Result r = slope::grad<F>(gradArg<I>(data, shadows, withExtents)...);
      collect(r, scalarGradients);
    }
    storeArrays(shadows, adjoints, indices);
    setScalarGradients(adjoints, scalarGradients);
  }
  void reverse(Values &adjoints, bool withExtents) override {
    reverseCall(adjoints, withExtents, Indices{});
  }

  template <std::size_t I, class Data>
  auto forwardArg(Data &data, Data &tangents, const Values &t) {
    if constexpr (isArray<I>())
      return slope::dup(std::get<I>(data).data(), std::get<I>(tangents).data(),
                        std::get<I>(data).size());
    else if constexpr (isScalar<I>())
      return slope::dual(std::get<I>(args), t[I][0]);
    else
      return std::get<I>(args);
  }
  template <std::size_t... I>
  double forwardCall(Values &t, std::index_sequence<I...> indices) {
    auto data = typedArrays(given, indices);
    auto tangents = typedArrays(t, indices);
    double value = 0;
    using Result =
        decltype(slope::derivative<F>(forwardArg<I>(data, tangents, t)...));
    if constexpr (std::is_void_v<Result>)
      slope::derivative<F>(forwardArg<I>(data, tangents, t)...);
    else
      value = static_cast<double>(
          slope::derivative<F>(forwardArg<I>(data, tangents, t)...));
    storeArrays(tangents, t, indices);
    return value;
  }
  double forward(Values &tangents) override {
    return forwardCall(tangents, Indices{});
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
