// Custom derivatives and inactive functions.
//
//   SLOPE_CUSTOM_DERIVATIVE(f, f_forward, f_pullback);   // namespace scope
//   SLOPE_INACTIVE double log_event(double);
//
// f_forward takes f's parameters, each floating-point scalar followed by
// its tangent and each pointer by its shadow, and returns
// slope::Dual<R>{value, tangent}. f_pullback takes f's parameters, each
// pointer followed by its shadow, then the result's adjoint (unless f
// returns void), and returns what grad<f> would return.
//
// The macro registers adapters with a fixed, ABI-free shape (results go
// through pointers) in the section the IR pass reads.
#ifndef SLOPE_CUSTOM_HPP
#define SLOPE_CUSTOM_HPP

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <slope/wrappers.hpp>

namespace slope::detail {

template <class P>
inline constexpr bool has_tangent_v =
    std::is_floating_point_v<P> || std::is_pointer_v<P>;

/// The companion of a parameter in a rule adapter: its tangent, its
/// shadow (never const: rules write through it), or an ignored byte.
template <class P>
using Companion = std::conditional_t<
    std::is_pointer_v<P>,
    std::add_pointer_t<std::remove_const_t<std::remove_pointer_t<P>>>,
    std::conditional_t<std::is_floating_point_v<P>, P, char>>;
/// Where a parameter's adjoint goes: floating-point scalars only.
template <class P>
using AdjointOut = std::conditional_t<std::is_floating_point_v<P>, P, char>;

template <class P> SLOPE_HD auto forwardArguments(P x, Companion<P> dx) {
  if constexpr (has_tangent_v<P>)
    return std::tuple<P, Companion<P>>(x, dx);
  else
    return std::tuple<P>(x);
}

template <class P> SLOPE_HD auto pullbackArguments(P x, Companion<P> dx) {
  if constexpr (std::is_pointer_v<P>)
    return std::tuple<P, Companion<P>>(x, dx);
  else
    return std::tuple<P>(x);
}

template <class P> SLOPE_HD void storeAdjoint(AdjointOut<P> *out, P value) {
  if constexpr (std::is_floating_point_v<P>)
    *out = value;
}

// Never defined: a rule of the wrong shape instantiates one of these, so
// that the compiler's message spells out the signature Slope expected.
template <class Signature> struct expected_forward_rule_signature;
template <class Parameters> struct expected_pullback_parameters;

template <class R, class Tuple> struct FunctionOf;
template <class R, class... A> struct FunctionOf<R, std::tuple<A...>> {
  using type = R(A...);
};

template <class Fn, class Tuple> struct Applicable;
template <class Fn, class... A>
struct Applicable<Fn, std::tuple<A...>> : std::is_invocable<Fn, A...> {};

/// Forces \p Shown to be complete (an error naming it) unless \p Fits.
template <bool Fits, class Shown>
inline constexpr bool require_shape =
    sizeof(std::conditional_t<Fits, char, Shown>) != 0;

template <auto F, auto Forward, auto Pullback, class Fn = decltype(F)>
struct CustomRule;

template <auto F, auto Forward, auto Pullback, class R, class... P>
struct CustomRule<F, Forward, Pullback, R (*)(P...)> {
  static constexpr std::size_t ScalarCount =
      ((std::is_floating_point_v<P> ? 1 : 0) + ... + 0);

  using ForwardParameters = decltype(std::tuple_cat(
      forwardArguments<P>(std::declval<P>(), std::declval<Companion<P>>())...));
  using ForwardResult = std::conditional_t<std::is_void_v<R>, void, Dual<R>>;
  static_assert(
      require_shape<Applicable<decltype(Forward), ForwardParameters>::value,
                    expected_forward_rule_signature<typename FunctionOf<
                        ForwardResult, ForwardParameters>::type>>,
      "slope: the forward rule does not fit (see the expected signature)");

  using PullbackParameters = decltype(std::tuple_cat(
      pullbackArguments<P>(std::declval<P>(), std::declval<Companion<P>>())...,
      std::conditional_t<std::is_void_v<R>, std::tuple<>, std::tuple<R>>{}));
  static_assert(
      require_shape<Applicable<decltype(Pullback), PullbackParameters>::value,
                    expected_pullback_parameters<PullbackParameters>>,
      "slope: the pullback does not fit (see the expected parameters)");

  /// forward(x..., dx..., value, tangent)
  SLOPE_HD static void forward(P... x, Companion<P>... dx, R *value,
                               R *tangent) {
    if constexpr (std::is_void_v<R>) {
      std::apply(Forward, std::tuple_cat(forwardArguments<P>(x, dx)...));
    } else {
      Dual<R> result =
          std::apply(Forward, std::tuple_cat(forwardArguments<P>(x, dx)...));
      *value = result.value;
      *tangent = result.tangent;
    }
  }

  /// pullback(x..., shadows..., adjoint of the result, adjoint outs...);
  /// for void f the adjoint of the result is an ignored byte.
  using ResultAdjoint = std::conditional_t<std::is_void_v<R>, char, R>;
  SLOPE_HD static void pullback(P... x, Companion<P>... dx,
                                ResultAdjoint adjoint, AdjointOut<P> *...out) {
    auto arguments = std::tuple_cat(pullbackArguments<P>(x, dx)...);
    if constexpr (ScalarCount == 0) {
      call(arguments, adjoint);
    } else if constexpr (ScalarCount == 1) {
      scatter(std::make_tuple(call(arguments, adjoint)), out...);
    } else {
      scatter(call(arguments, adjoint), out...);
    }
  }

private:
  template <class Arguments>
  SLOPE_HD static auto call(Arguments &arguments, ResultAdjoint adjoint) {
    if constexpr (std::is_void_v<R>)
      return std::apply(Pullback, arguments);
    else
      return std::apply(Pullback,
                        std::tuple_cat(arguments, std::make_tuple(adjoint)));
  }

  /// Hands the returned adjoints, in order, to the outs of the scalars.
  template <class Adjoints>
  SLOPE_HD static void scatter(const Adjoints &adjoints,
                               AdjointOut<P> *...out) {
    std::size_t next = 0;
    (scatterOne<P>(adjoints, next, out), ...);
  }

  template <class Q, class Adjoints>
  SLOPE_HD static void scatterOne(const Adjoints &adjoints, std::size_t &next,
                                  AdjointOut<Q> *out) {
    if constexpr (std::is_floating_point_v<Q>) {
      pick(adjoints, next, out, std::make_index_sequence<ScalarCount>{});
      ++next;
    }
  }

  template <class Adjoints, class T, std::size_t... I>
  SLOPE_HD static void pick(const Adjoints &adjoints, std::size_t index, T *out,
                            std::index_sequence<I...>) {
    ((index == I ? (void)(*out = static_cast<T>(std::get<I>(adjoints)))
                 : (void)0),
     ...);
  }
};

} // namespace slope::detail

#define SLOPE_CONCAT_IMPL_(A, B) A##B
#define SLOPE_CONCAT_(A, B) SLOPE_CONCAT_IMPL_(A, B)

/// A registration of f's rules in the section the IR pass reads.
#define SLOPE_CUSTOM_RULE_IN_(SECTION, F, FORWARD, PULLBACK)                   \
  __attribute__((used, section(SECTION))) static const void *const             \
  SLOPE_CONCAT_(slope_custom_rule_, __COUNTER__)[3] = {                        \
      reinterpret_cast<const void *>(&F),                                      \
      reinterpret_cast<const void *>(                                          \
          &::slope::detail::CustomRule<&F, &FORWARD, &PULLBACK>::forward),     \
      reinterpret_cast<const void *>(                                          \
          &::slope::detail::CustomRule<&F, &FORWARD, &PULLBACK>::pullback)}

/// Registers f_forward and f_pullback as f's derivative rules.
#define SLOPE_CUSTOM_DERIVATIVE(F, FORWARD, PULLBACK)                          \
  SLOPE_CUSTOM_RULE_IN_(".slope.rules", F, FORWARD, PULLBACK)

/// SLOPE_CUSTOM_DERIVATIVE for a pullback that reads the shadows of f's
/// pointer arguments and f's other arguments, never the memory the
/// pointers point to (communication: slope/mpi.hpp). Later writes to that
/// memory then need no augmented forward that keeps it.
#define SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(F, FORWARD, PULLBACK)             \
  SLOPE_CUSTOM_RULE_IN_(".slope.rules.shadows", F, FORWARD, PULLBACK)

#endif
