// Implementation of grad/derivative for a target of type R(*)(Q...) whose
// caller-side signature is S(*)(P...) (see adapter.hpp).
#ifndef SLOPE_DETAIL_CALLS_HPP
#define SLOPE_DETAIL_CALLS_HPP

#include <array>
#include <tuple>

#include <slope/detail/adapter.hpp>
#include <slope/detail/arguments.hpp>
#include <slope/detail/lowered_arguments.hpp>
#include <slope/detail/marker.hpp>
#include <slope/results.hpp>

namespace slope::detail {

/// One parameter: its kind and storage, and the marker's operands for it.
/// Q is the parameter of the function differentiated, P the parameter as
/// the caller sees it (they differ where the adapter lowers P).
template <Mode M, class Q, class P, class A> struct Param {
  static constexpr bool lowered = needs_lowering_v<P>;
  static constexpr char kind = [] {
    if constexpr (lowered)
      return lowered_kind<M, P, A>();
    else
      return kind_of<M, Q, A>();
  }();
  static constexpr char marker = marker_kind(kind);
  struct Nothing {
    template <class X> SLOPE_HD explicit Nothing(const X &) {}
  };
  using HeldType = std::conditional_t<lowered, HeldFor<M, P, A>, Nothing>;
  using Slot =
      std::conditional_t<kind == 'A', Q,
                         std::conditional_t<kind == 'R', Referent<P>, char>>;

  template <std::size_t Width, std::size_t I> static constexpr bool check() {
    if constexpr (lowered)
      check_lowered_argument<M, Width, P, A>();
    else
      check_argument<M, Width, I, Q, A>();
    return true;
  }
  SLOPE_HD static auto primal(HeldType &held, A &arg) {
    if constexpr (lowered)
      return marker_operand(lowered_primal<kind>(held, arg));
    else
      return marker_operand<Q>(primal_of<Q>(std::forward<A>(arg)));
  }
  /// Vector mode: an active scalar's adjoint in each lane.
  template <std::size_t Width>
  using LaneSlot = std::conditional_t<
      kind == 'A', std::array<Q, Width>,
      std::conditional_t<kind == 'R', std::array<Referent<P>, Width>, char>>;
  /// Vector reverse mode: lane \p Lane's shadow operand.
  template <std::size_t Lane, class S>
  SLOPE_HD static auto laneShadow(A &arg, S &slot) {
    return marker_operand(lane_shadow_of < kind == 'R' ? 'A' : kind,
                          Lane > (arg, slot));
  }
  /// Vector forward mode: lane \p Lane's tangent or shadow operand.
  template <std::size_t Lane>
  SLOPE_HD static auto forwardLaneShadow(HeldType &held, A &arg) {
    if constexpr (lowered && kind == 'T')
      return marker_operand(&held.tangent[Lane]);
    else if constexpr (lowered && kind != 'D')
      return marker_operand(nullptr);
    else
      return marker_operand(forward_lane_shadow_of<kind, Lane, Q>(arg));
  }
  SLOPE_HD static auto reverseShadow(HeldType &held, A &arg, Slot &slot) {
    if constexpr (lowered)
      return marker_operand(lowered_shadow<kind>(held, arg, slot));
    else
      return marker_operand(reverse_shadow_of<kind, Q>(arg, slot));
  }
  SLOPE_HD static auto forwardShadow(HeldType &held, A &arg) {
    if constexpr (lowered) {
      char unused = 0;
      return marker_operand(lowered_shadow<kind>(held, arg, unused));
    } else {
      return marker_operand(forward_shadow_of<kind, Q>(arg));
    }
  }
};

template <class Fn, class Source = Fn> struct Call {
  static_assert(always_false<Fn>,
                "slope: the differentiated function must be a function, a "
                "member function (&Class::name) or a lambda");
};

template <class R, class... Q, class S, class... P>
struct Call<R (*)(Q...), S (*)(P...)> {
  // A struct result has no seed and no tangent of its own.
  static_assert(std::is_void_v<R> || std::is_scalar_v<R>,
                "slope: the differentiated function must return a "
                "floating-point scalar, void, or an integer or pointer "
                "(not differentiated); return a struct's fields through a "
                "pointer parameter passed with slope::dup");

  template <auto F, bool WithValue, class... A>
  SLOPE_HD static auto reverse(A &&...args) {
    static_assert(sizeof...(A) == sizeof...(P),
                  "slope: wrong number of arguments for the differentiated "
                  "function");
    // Only the assertion above when the count is wrong, not a cascade.
    if constexpr (sizeof...(A) == sizeof...(P))
      return reverseImpl<F, WithValue>(std::index_sequence_for<P...>{},
                                       std::forward<A>(args)...);
  }

  template <auto F, bool WithValue, class... A>
  SLOPE_HD static auto forward(A &&...args) {
    static_assert(sizeof...(A) == sizeof...(P),
                  "slope: wrong number of arguments for the differentiated "
                  "function");
    // Only the assertion above when the count is wrong, not a cascade.
    if constexpr (sizeof...(A) == sizeof...(P))
      return forwardImpl<F, WithValue>(std::index_sequence_for<P...>{},
                                       std::forward<A>(args)...);
  }

private:
  template <class Slots, std::size_t... J, char... K>
  SLOPE_HD static auto collect(Slots &slots, std::index_sequence<J...>,
                               ActivePositions<K...>) {
    using Active = ActivePositions<K...>;
    if constexpr (sizeof...(J) == 0)
      return;
    else if constexpr (sizeof...(J) == 1)
      return (std::get<Active::value.at[J]>(slots), ...);
    else
      return std::make_tuple(std::get<Active::value.at[J]>(slots)...);
  }

  /// What grad (or value_and_grad) returns, from the adjoint slots.
  template <bool WithValue, class Slots, class Kinds>
  SLOPE_HD static auto gradResult(ResultSlot<R> &result, Slots &slots, Kinds) {
    using Indices = std::make_index_sequence<Kinds::count>;
    if constexpr (!WithValue) {
      return collect(slots, Indices{}, Kinds{});
    } else {
      using Grad = decltype(collect(slots, Indices{}, Kinds{}));
      if constexpr (std::is_void_v<Grad>)
        return ValueAndGrad<R, Grad>{result};
      else
        return ValueAndGrad<R, Grad>{result,
                                     collect(slots, Indices{}, Kinds{})};
    }
  }

  /// Lane \p Lane's shadow operands, one per parameter.
  template <std::size_t Lane, class... A, class Slots, std::size_t... I>
  SLOPE_HD static auto laneOperands(Slots &slots, std::index_sequence<I...>,
                                    A &...args) {
    return std::make_tuple(
        Param<Mode::Reverse, Q, P, A>::template laneShadow<Lane>(
            args, std::get<I>(slots))...);
  }

  /// Vector reverse mode: one primal sweep, one reverse sweep per lane.
  template <auto F, bool WithValue, std::size_t Width, std::size_t... I,
            std::size_t... L, class... A>
  SLOPE_HD static auto reverseLanes(std::index_sequence<I...> params,
                                    std::index_sequence<L...>, A &&...args) {
    using Kinds = ActivePositions<Param<Mode::Reverse, Q, P, A>::kind...>;
    std::tuple<
        typename Param<Mode::Reverse, Q, P, A>::template LaneSlot<Width>...>
        slots{};
    std::tuple<typename Param<Mode::Reverse, Q, P, A>::HeldType...> held{
        typename Param<Mode::Reverse, Q, P, A>::HeldType(args)...};
    ResultSlot<R> result;
    auto operands =
        std::tuple_cat(std::make_tuple(Param<Mode::Reverse, Q, P, A>::primal(
                           std::get<I>(held), args)...),
                       laneOperands<L, A...>(slots, params, args...)...,
                       std::make_tuple(extent_bytes_of(args)...));
    std::apply(
        [&](auto... operand) {
          reverse_marker(
              reinterpret_cast<const void *>(F),
              LaneDescriptor<Width,
                             Param<Mode::Reverse, Q, P, A>::marker...>::value,
              // No address where the value is not wanted: the compiler
              // then drops what only the value needed.
              WithValue ? result.address() : nullptr, operand...);
        },
        operands);
    return gradResult<WithValue>(result, slots, Kinds{});
  }

  static constexpr bool anyLowered = (needs_lowering_v<P> || ...);
  /// Vector mode takes lowered parameters in every form but a dup
  /// without lanes (reported).
  template <class... A>
  static constexpr bool lanesTake =
      ((!needs_lowering_v<P> || !IsDup<std::decay_t<A>>::value) && ...);

  template <auto F, bool WithValue, std::size_t... I, class... A>
  SLOPE_HD static auto reverseImpl(std::index_sequence<I...> params,
                                   A &&...args) {
    constexpr std::size_t Width = width_of<A...>();
    constexpr bool Checked =
        (Param<Mode::Reverse, Q, P, A>::template check<Width, I>() && ...);
    if constexpr (Width > 1 && lanesTake<A...>) {
      return reverseLanes<F, WithValue, Width>(
          params, std::make_index_sequence<Width>{}, std::forward<A>(args)...);
    } else if constexpr (Checked && Width == 1) {
      using Kinds = ActivePositions<Param<Mode::Reverse, Q, P, A>::kind...>;
      std::tuple<typename Param<Mode::Reverse, Q, P, A>::Slot...> slots{};
      std::tuple<typename Param<Mode::Reverse, Q, P, A>::HeldType...> held{
          typename Param<Mode::Reverse, Q, P, A>::HeldType(args)...};
      ResultSlot<R> result;
      reverse_marker(
          reinterpret_cast<const void *>(F),
          Descriptor<Param<Mode::Reverse, Q, P, A>::marker...>::value,
          WithValue ? result.address() : nullptr,
          Param<Mode::Reverse, Q, P, A>::primal(std::get<I>(held), args)...,
          Param<Mode::Reverse, Q, P, A>::reverseShadow(std::get<I>(held), args,
                                                       std::get<I>(slots))...,
          extent_bytes_of(args)...);
      return gradResult<WithValue>(result, slots, Kinds{});
    }
  }

  /// Lane \p Lane's tangent and shadow operands, one per parameter.
  template <std::size_t Lane, class... A, class Held, std::size_t... I>
  SLOPE_HD static auto
  forwardLaneOperands(Held &held, std::index_sequence<I...>, A &...args) {
    return std::make_tuple(
        Param<Mode::Forward, Q, P, A>::template forwardLaneShadow<Lane>(
            std::get<I>(held), args)...);
  }

  /// Vector forward mode: one primal, one tangent per lane.
  template <auto F, bool WithValue, std::size_t Width, std::size_t... I,
            std::size_t... L, class... A>
  SLOPE_HD static auto forwardLanes(std::index_sequence<I...> params,
                                    std::index_sequence<L...>, A &&...args) {
    ResultSlot<R> result;
    using Tangents =
        std::conditional_t<std::is_void_v<R>, void, std::array<R, Width>>;
    ResultSlot<Tangents> tangents;
    std::tuple<typename Param<Mode::Forward, Q, P, A>::HeldType...> held{
        typename Param<Mode::Forward, Q, P, A>::HeldType(args)...};
    auto operands =
        std::tuple_cat(std::make_tuple(Param<Mode::Forward, Q, P, A>::primal(
                           std::get<I>(held), args)...),
                       forwardLaneOperands<L, A...>(held, params, args...)...);
    std::apply(
        [&](auto... operand) {
          forward_marker(
              reinterpret_cast<const void *>(F),
              LaneDescriptor<Width,
                             Param<Mode::Forward, Q, P, A>::marker...>::value,
              result.address(), tangents.address(), operand...);
        },
        operands);
    if constexpr (std::is_void_v<R>)
      return;
    else if constexpr (!WithValue)
      return tangents.value;
    else
      return ValueAndDerivative<R, Tangents>{result.value, tangents.value};
  }

  template <auto F, bool WithValue, std::size_t... I, class... A>
  SLOPE_HD static auto forwardImpl(std::index_sequence<I...>, A &&...args) {
    constexpr std::size_t Width = width_of<A...>();
    constexpr bool Checked =
        (Param<Mode::Forward, Q, P, A>::template check<Width, I>() && ...);
    if constexpr (Width > 1 && lanesTake<A...>) {
      return forwardLanes<F, WithValue, Width>(
          std::index_sequence_for<P...>{}, std::make_index_sequence<Width>{},
          std::forward<A>(args)...);
    } else if constexpr (Width > 1) {
      // Lanes with reference or class-type parameters: the check above has
      // said so; give the lanes' type, not a cascade of errors.
      if constexpr (!std::is_void_v<R>)
        return std::array<R, Width>{};
    } else if constexpr (Checked && Width == 1) {
      std::tuple<typename Param<Mode::Forward, Q, P, A>::HeldType...> held{
          typename Param<Mode::Forward, Q, P, A>::HeldType(args)...};
      ResultSlot<R> result;
      ResultSlot<R> tangent;
      forward_marker(
          reinterpret_cast<const void *>(F),
          Descriptor<Param<Mode::Forward, Q, P, A>::marker...>::value,
          result.address(), tangent.address(),
          Param<Mode::Forward, Q, P, A>::primal(std::get<I>(held), args)...,
          Param<Mode::Forward, Q, P, A>::forwardShadow(std::get<I>(held),
                                                       args)...);
      if constexpr (std::is_void_v<R>)
        return;
      else if constexpr (!WithValue)
        return tangent.value;
      else
        return ValueAndDerivative<R>{result.value, tangent.value};
    }
  }
};

// noexcept is part of the function type since C++17; it changes nothing here.
template <class R, class... P, class Source>
struct Call<R (*)(P...) noexcept, Source> : Call<R (*)(P...), Source> {};
template <class R, class... P, class S, class... Q>
struct Call<R (*)(P...), S (*)(Q...) noexcept>
    : Call<R (*)(P...), S (*)(Q...)> {};

template <class R, class... P, class Source>
struct Call<R (*)(P..., ...), Source> {
  static_assert(always_false<R (*)(P..., ...)>,
                "slope: variadic functions cannot be differentiated");
};

template <auto F>
using CallOf =
    Call<decltype(function_pointer<F>()), typename SourceSignature<F>::type>;

} // namespace slope::detail

#endif
