// Targets that return a struct (or class) by value. Slope differentiates
// a function that writes the result through a pointer instead, passed
// with slope::dup: forward mode returns the tangent the result's shadow
// received; reverse mode takes the result's adjoint as a seed,
// slope::grad<f>(slope::seed(r_bar), x...), as the shadow of a dup'd output
// of a void function is its seed.
#ifndef SLOPE_DETAIL_RECORD_RESULTS_HPP
#define SLOPE_DETAIL_RECORD_RESULTS_HPP

#include <type_traits>
#include <utility>

#include <slope/detail/adapter.hpp>
#include <slope/detail/calls.hpp>
#include <slope/results.hpp>
#include <slope/wrappers.hpp>

namespace slope {

/// The adjoint of a struct result: what grad<f> propagates back from it.
template <class T> struct Seed { T adjoint; };

template <class T> SLOPE_HD constexpr Seed<T> seed(T adjoint) {
  return {adjoint};
}

namespace detail {

template <class Fn> struct ResultOfSignature {
  using type = void; // not a function: the usual checks report it
};
template <class R, class... P> struct ResultOfSignature<R (*)(P...)> {
  using type = R;
};
template <class R, class... P> struct ResultOfSignature<R (*)(P...) noexcept> {
  using type = R;
};

/// What F returns (a member function's too: Source puts the object first).
template <auto F>
using target_result_t =
    typename ResultOfSignature<typename SourceSignature<F>::type>::type;

template <auto F>
inline constexpr bool returns_record_v =
    std::is_class_v<target_result_t<F>> || std::is_union_v<target_result_t<F>>;

/// Calls F (a function, or a member function on its first argument).
template <auto G, class... A> SLOPE_HD decltype(auto) call_target(A &&...a) {
  if constexpr (std::is_member_function_pointer_v<decltype(G)>) {
    return [](auto &&self, auto &&...rest) -> decltype(auto) {
      return (self.*G)(std::forward<decltype(rest)>(rest)...);
    }(std::forward<A>(a)...);
  } else {
    return G(std::forward<A>(a)...);
  }
}

/// F with its result written through \p out: void(R *out, F's parameters).
template <auto F, class Source = typename SourceSignature<F>::type>
struct ResultThroughPointer;
template <auto F, class R, class... P>
struct ResultThroughPointer<F, R (*)(P...)> {
  SLOPE_HD static void call(R *out, P... args) {
    *out = call_target<plain_target<F>()>(static_cast<P &&>(args)...);
  }
};

template <class... A> struct FirstIsSeed : std::false_type {};
template <class T, class... A>
struct FirstIsSeed<Seed<T>, A...> : std::true_type {};
/// The callable-object form passes the object first, then the seed.
template <class... A> struct SecondIsSeed : std::false_type {};
template <class O, class T, class... A>
struct SecondIsSeed<O, Seed<T>, A...> : std::true_type {};

template <auto F, bool WithValue, class O, class T, class... A>
SLOPE_HD auto record_reverse_after_object(O &&object, Seed<T> seed,
                                          A &&...args);

template <class T> struct GradOf;
template <class G> struct GradOf<ValueAndGrad<void, G>> { using type = G; };

/// The function written through a pointer, as the marker calls it.
template <auto F>
inline constexpr auto result_through_pointer = &ResultThroughPointer<F>::call;

template <auto F, bool WithValue, class T, class... A>
SLOPE_HD auto record_reverse_seeded(Seed<T> seed, A &&...args) {
  using R = target_result_t<F>;
  static_assert(std::is_same_v<std::remove_cv_t<T>, R>,
                "slope: slope::seed(r_bar) must hold the differentiated "
                "function's result type");
  constexpr auto G = result_through_pointer<F>;
  R value{};
  R adjoint = seed.adjoint;
  auto grads =
      Call<decltype(function_pointer<G>()), typename SourceSignature<G>::type>::
          template reverse<function_pointer<G>(), true>(
              slope::dup(&value, &adjoint), std::forward<A>(args)...);
  using Grad = typename GradOf<decltype(grads)>::type;
  if constexpr (!WithValue) {
    if constexpr (!std::is_void_v<Grad>)
      return grads.grad;
  } else {
    ResultSlot<R> slot;
    slot.value = value;
    if constexpr (!std::is_void_v<Grad>)
      return ValueAndGrad<R, Grad>{slot, grads.grad};
    else
      return ValueAndGrad<R, void>{slot};
  }
}

/// grad and value_and_grad of a target returning a struct: the result's
/// adjoint comes first, as slope::seed(r_bar).
template <auto F, bool WithValue, class... A>
SLOPE_HD auto record_reverse(A &&...args) {
  constexpr bool First = FirstIsSeed<std::decay_t<A>...>::value;
  constexpr bool Second = SecondIsSeed<std::decay_t<A>...>::value;
  static_assert(First || Second,
                "slope: the differentiated function returns a struct: pass "
                "the adjoint of its result first, "
                "slope::grad<f>(slope::seed(r_bar), args...)");
  if constexpr (First)
    return record_reverse_seeded<F, WithValue>(std::forward<A>(args)...);
  else if constexpr (Second)
    return record_reverse_after_object<F, WithValue>(std::forward<A>(args)...);
}

template <auto F, bool WithValue, class O, class T, class... A>
SLOPE_HD auto record_reverse_after_object(O &&object, Seed<T> seed,
                                          A &&...args) {
  return record_reverse_seeded<F, WithValue>(seed, std::forward<O>(object),
                                             std::forward<A>(args)...);
}

/// derivative and value_and_derivative of a target returning a struct:
/// the result's tangent.
template <auto F, bool WithValue, class... A>
SLOPE_HD auto record_forward(A &&...args) {
  using R = target_result_t<F>;
  constexpr auto G = result_through_pointer<F>;
  R value{}, tangent{};
  Call<decltype(function_pointer<G>()), typename SourceSignature<G>::type>::
      template forward<function_pointer<G>(), false>(
          slope::dup(&value, &tangent), std::forward<A>(args)...);
  if constexpr (WithValue)
    return ValueAndDerivative<R>{value, tangent};
  else
    return tangent;
}

} // namespace detail
} // namespace slope

#endif
