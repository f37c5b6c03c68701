// Arguments bound to parameters the adapter lowers to pointers (references
// and class objects, see adapter.hpp): what each kind of argument means
// there, what the call must hold for the duration of the marker call, and
// the primal and shadow pointers the marker receives.
//
// Kinds, besides those of plain parameters ('A', 'C', 'I', 'D'):
//   'R'  a floating-point value bound to a const reference in reverse mode:
//        active like a scalar passed by value; its adjoint is returned
//   'T'  slope::dual(x, dx) bound to a const reference (forward mode)
//   'k'  a floating-point value bound to a const reference in forward
//        mode: constant, passed as the address of a copy
//   'K'  any other plain or slope::constant object: constant, passed by
//        address (of a converted copy where the types differ)
//   'V'  slope::dup(x, dx) bound to a parameter of another type that is
//        made from it (a std::span from a std::vector): both converted
// The marker sees 'R', 'T' and 'V' as 'D', and 'K' and 'k' as 'C'.
#ifndef SLOPE_DETAIL_LOWERED_ARGUMENTS_HPP
#define SLOPE_DETAIL_LOWERED_ARGUMENTS_HPP

#include <type_traits>

#include <slope/detail/adapter.hpp>
#include <slope/detail/arguments.hpp>
#include <slope/wrappers.hpp>

namespace slope::detail {

/// The object type behind a lowered parameter P.
template <class P>
using Referent = std::remove_cv_t<std::remove_reference_t<P>>;

template <class P>
inline constexpr bool is_writable_reference_v =
    std::is_lvalue_reference_v<P> &&
    !std::is_const_v<std::remove_reference_t<P>>;

/// The element type of a dup or the held type of a constant.
template <class D> struct Wrapped { using type = D; };
template <class T> struct Wrapped<Dup<T>> { using type = std::remove_cv_t<T>; };
template <class T> struct Wrapped<Constant<T>> {
  using type = std::remove_cv_t<T>;
};

template <Mode M, class P, class A> constexpr char lowered_kind() {
  using D = std::decay_t<A>;
  using T = Referent<P>;
  if constexpr (IsDup<D>::value)
    return std::is_same_v<typename Wrapped<D>::type, T> ? 'D' : 'V';
  else if constexpr (IsDupLanes<D>::value)
    return 'D'; // the object's own type (checked), one shadow per lane
  else if constexpr (IsDualLanes<D>::value)
    return 'T';
  else if constexpr (IsConstant<D>::value)
    return std::is_pointer_v<decltype(D::value)> ? 'C' : 'K';
  else if constexpr (IsDual<D>::value)
    return 'T';
  else if constexpr (std::is_floating_point_v<T> && std::is_floating_point_v<D>)
    return M == Mode::Reverse ? 'R' : 'k';
  else
    return 'K';
}

/// The kind the marker's descriptor carries.
constexpr char marker_kind(char Kind) {
  switch (Kind) {
  case 'R':
  case 'T':
  case 'V':
    return 'D';
  case 'K':
  case 'k':
    return 'C';
  default:
    return Kind;
  }
}

/// dup(obj, lanes(&d0, ...)) of a lowered parameter's own type: vector
/// mode passes it as the pointer the adapter takes.
template <class P, class D> struct LaneObject : std::false_type {};
template <class P, class T, std::size_t N>
struct LaneObject<P, DupLanes<T, N>>
    : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, Referent<P>> &&
                         !(is_writable_reference_v<P> && std::is_const_v<T>)> {
};
template <class P, class D>
inline constexpr bool lane_object_v = LaneObject<P, D>::value;

template <Mode M, std::size_t Width, class P, class A>
constexpr void check_lowered_argument() {
  using D = std::decay_t<A>;
  using T = Referent<P>;
  constexpr char Kind = lowered_kind<M, P, A>();
  static_assert(!IsDup<D>::value || Width == 1,
                "slope: in vector mode every dup argument takes one shadow "
                "per lane: slope::dup(obj, slope::lanes(&dobj0, &dobj1, ...))");
  static_assert(!IsDupLanes<D>::value || lane_object_v<P, D>,
                "slope: slope::dup(obj, slope::lanes(...)) must bind to a "
                "parameter of the object's own type");
  static_assert(!IsDualLanes<D>::value || Width == lanes_of<D>,
                "slope: every slope::lanes(...) of one call must have the "
                "same number of shadows");
  if constexpr (Kind == 'T') {
    static_assert(M == Mode::Forward,
                  "slope: slope::dual(x, dx) is for forward mode "
                  "(slope::derivative); pass a plain value to slope::grad");
    static_assert(std::is_floating_point_v<T> && !is_writable_reference_v<P>,
                  "slope: slope::dual(x, dx) must bind to a float or double "
                  "parameter (by value or const reference)");
  } else if constexpr (Kind == 'V') {
    using X = typename Wrapped<D>::type;
    static_assert(std::is_constructible_v<T, X &>,
                  "slope: slope::dup(x, dx) does not bind to this parameter: "
                  "its type cannot be made from x's");
    static_assert(!is_writable_reference_v<P>,
                  "slope: slope::dup(x, dx) must bind to a reference of x's "
                  "own type where the function may change it");
  } else if constexpr (Kind == 'K' || Kind == 'k' || Kind == 'R') {
    static_assert(!is_writable_reference_v<P> || !std::is_floating_point_v<T>,
                  "slope: a floating-point value the function may change "
                  "(a T& parameter) must be wrapped: slope::dup(x, dx) to "
                  "differentiate it, or slope::constant(&x)");
    using X = typename Wrapped<D>::type;
    static_assert(std::is_same_v<X, T> || std::is_constructible_v<T, const X &>,
                  "slope: an argument does not convert to the parameter type "
                  "of the differentiated function");
    static_assert(std::is_same_v<X, T> || !is_writable_reference_v<P>,
                  "slope: an argument bound to a non-const reference must "
                  "have the parameter's own type");
  }
}

/// What a call holds for one lowered argument while the marker runs.
template <char Kind, class T, class D> struct Held {
  SLOPE_HD explicit Held(const D &) {}
};
template <class T, class D> struct Held<'R', T, D> {
  T value;
  SLOPE_HD explicit Held(const D &a) : value(static_cast<T>(a)) {}
};
template <class T, class D> struct Held<'k', T, D> : Held<'R', T, D> {
  using Held<'R', T, D>::Held;
};
template <class T, class D> struct Held<'T', T, D> {
  T value, tangent;
  SLOPE_HD explicit Held(const D &a)
      : value(static_cast<T>(a.value)), tangent(static_cast<T>(a.tangent)) {}
};
template <class T, class U, std::size_t N>
struct Held<'T', T, DualLanes<U, N>> {
  T value, tangent[N];
  SLOPE_HD explicit Held(const DualLanes<U, N> &a)
      : value(static_cast<T>(a.value)) {
    for (std::size_t i = 0; i < N; ++i)
      tangent[i] = static_cast<T>(a.tangent[i]);
  }
};
template <class T, class D> struct Held<'V', T, D> {
  T primal, shadow;
  SLOPE_HD explicit Held(const D &a) : primal(*a.primal), shadow(*a.shadow) {}
};
template <class T, class D> struct Held<'K', T, D> {
  // The object itself where it has the parameter's type, else a copy
  // converted to it.
  using X = typename Wrapped<D>::type;
  static constexpr bool Same = std::is_same_v<X, T>;
  std::conditional_t<Same, const X *, T> object;
  SLOPE_HD static const X &unwrap(const D &a) {
    if constexpr (IsConstant<D>::value)
      return a.value;
    else
      return a;
  }
  SLOPE_HD explicit Held(const D &a)
      : object([&]() -> decltype(object) {
          if constexpr (Same)
            return __builtin_addressof(unwrap(a));
          else
            return T(unwrap(a));
        }()) {}
  SLOPE_HD const T *address() const {
    if constexpr (Same)
      return object;
    else
      return &object;
  }
};

template <Mode M, class P, class A>
using HeldFor = Held<lowered_kind<M, P, A>(), Referent<P>, std::decay_t<A>>;

/// The primal pointer the marker receives.
template <char Kind, class H, class A>
SLOPE_HD auto lowered_primal(H &held, A &arg) {
  if constexpr (Kind == 'R' || Kind == 'k' || Kind == 'T')
    return &held.value;
  else if constexpr (Kind == 'K')
    return held.address();
  else if constexpr (Kind == 'V')
    return &held.primal;
  else if constexpr (Kind == 'D')
    return arg.primal;
  else // 'C'
    return arg.value;
}

/// The shadow pointer the marker receives (the adjoint slot of 'R').
template <char Kind, class H, class A, class Slot>
SLOPE_HD auto lowered_shadow(H &held, A &arg, Slot &slot) {
  if constexpr (Kind == 'R')
    return &slot;
  else if constexpr (Kind == 'T')
    return &held.tangent;
  else if constexpr (Kind == 'V')
    return &held.shadow;
  else if constexpr (Kind == 'D')
    return arg.shadow;
  else
    return nullptr;
}

} // namespace slope::detail

#endif
