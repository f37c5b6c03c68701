// Compile-time classification of grad/derivative arguments against the
// target's parameter types, and the checks that give readable errors.
#ifndef SLOPE_DETAIL_ARGUMENTS_HPP
#define SLOPE_DETAIL_ARGUMENTS_HPP

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include <slope/wrappers.hpp>

namespace slope::detail {

enum class Mode { Reverse, Forward };

template <class> inline constexpr bool always_false = false;

template <class T> struct IsConstant : std::false_type {};
template <class T> struct IsConstant<Constant<T>> : std::true_type {};
template <class T> struct IsDup : std::false_type {};
template <class T> struct IsDup<Dup<T>> : std::true_type {};
template <class T> struct IsDupLanes : std::false_type {};
template <class T, std::size_t N>
struct IsDupLanes<DupLanes<T, N>> : std::true_type {};
template <class T> struct IsDual : std::false_type {};
template <class T> struct IsDual<Dual<T>> : std::true_type {};
template <class T> struct IsDualLanes : std::false_type {};
template <class T, std::size_t N>
struct IsDualLanes<DualLanes<T, N>> : std::true_type {};

/// The number of lanes an argument brings: N for dup(x, lanes(...)) and
/// dual(x, lanes(...)), else 1.
template <class T> inline constexpr std::size_t lanes_of = 1;
template <class T, std::size_t N>
inline constexpr std::size_t lanes_of<DupLanes<T, N>> = N;
template <class T, std::size_t N>
inline constexpr std::size_t lanes_of<DualLanes<T, N>> = N;

/// The lanes of a call: those of its dup(x, lanes(...)) arguments, which
/// must agree; 1 without any.
template <class... A> constexpr std::size_t width_of() {
  std::size_t width = 1;
  ((width = lanes_of<std::decay_t<A>> > 1 ? lanes_of<std::decay_t<A>> : width),
   ...);
  return width;
}

template <class P>
inline constexpr bool is_pointer_to_float_v =
    std::is_pointer_v<P> &&
    (std::is_floating_point_v<std::remove_cv_t<std::remove_pointer_t<P>>> ||
     std::is_pointer_v<std::remove_cv_t<std::remove_pointer_t<P>>>);

/// The activity character of one argument A bound to parameter P.
template <Mode M, class P, class A> constexpr char kind_of() {
  using D = std::decay_t<A>;
  if constexpr (IsConstant<D>::value)
    return 'C';
  else if constexpr (IsDup<D>::value || IsDupLanes<D>::value)
    return 'D';
  else if constexpr (IsDual<D>::value || IsDualLanes<D>::value)
    return 'A';
  else if constexpr (std::is_floating_point_v<P>)
    return M == Mode::Reverse ? 'A' : 'C';
  else
    return 'I';
}

/// Static checks on one argument; Index is 1-based in messages via the
/// instantiation context that the compiler prints.
template <Mode M, std::size_t Width, std::size_t Index, class P, class A>
constexpr void check_argument() {
  using D = std::decay_t<A>;
  static_assert(!std::is_reference_v<P>,
                "slope: reference parameters are not supported yet; take "
                "the value, or a pointer passed with slope::dup");
  static_assert(std::is_scalar_v<std::remove_reference_t<P>>,
                "slope: parameters of class type passed by value are not "
                "supported yet; pass a pointer with slope::dup");
  if constexpr (IsDual<D>::value || IsDualLanes<D>::value) {
    static_assert(M == Mode::Forward,
                  "slope: slope::dual(x, dx) is for forward mode "
                  "(slope::derivative); pass a plain value to slope::grad");
    static_assert(std::is_floating_point_v<P>,
                  "slope: slope::dual(x, dx) must bind to a float or double "
                  "parameter");
    static_assert(lanes_of<D> == Width,
                  "slope: in vector mode every dual argument takes one "
                  "tangent per lane, and every slope::lanes(...) of one call "
                  "the same number: slope::dual(x, slope::lanes(t0, t1, ...))");
  } else if constexpr (IsDup<D>::value) {
    static_assert(std::is_pointer_v<P>,
                  "slope: slope::dup(x, dx) must bind to a pointer parameter");
    static_assert(Width == 1,
                  "slope: in vector mode every dup argument takes one shadow "
                  "per lane: slope::dup(x, slope::lanes(dx0, dx1, ...))");
  } else if constexpr (IsDupLanes<D>::value) {
    static_assert(std::is_pointer_v<P>,
                  "slope: slope::dup(x, slope::lanes(...)) must bind to a "
                  "pointer parameter");
    static_assert(lanes_of<D> == Width,
                  "slope: every slope::lanes(...) of one call must have the "
                  "same number of shadows");
  } else if constexpr (!IsConstant<D>::value) {
    static_assert(!is_pointer_to_float_v<P>,
                  "slope: a pointer to floating-point data must be wrapped: "
                  "slope::dup(x, dx) to differentiate it, or "
                  "slope::constant(x)");
    static_assert(std::is_convertible_v<A, P>,
                  "slope: an argument does not convert to the parameter type "
                  "of the differentiated function");
  }
}

/// The primal operand: what a plain call would pass for this parameter.
template <class P, class A> SLOPE_HD constexpr P primal_of(A &&arg) {
  using D = std::decay_t<A>;
  if constexpr (IsConstant<D>::value || IsDual<D>::value ||
                IsDualLanes<D>::value)
    return static_cast<P>(arg.value);
  else if constexpr (IsDup<D>::value || IsDupLanes<D>::value)
    return arg.primal;
  else
    return std::forward<A>(arg);
}

/// The bytes the caller says the function may access through a pointer
/// argument (dup(x, dx, n), constant(p, n)); 0 when unknown or not a
/// pointer. The pass may then take a derivative that assumes such
/// arguments do not overlap, after checking that at run time.
template <class A>
SLOPE_HD constexpr std::size_t extent_bytes_of(const A &arg) {
  using D = std::decay_t<A>;
  if constexpr (IsDup<D>::value || IsDupLanes<D>::value) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(arg.primal)>>;
    return arg.extent * sizeof(T);
  } else if constexpr (IsConstant<D>::value) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(arg.value)>>;
    if constexpr (!std::is_pointer_v<decltype(arg.value)>)
      return 0;
    else if constexpr (std::is_void_v<T>)
      return arg.extent;
    else
      return arg.extent * sizeof(T);
  } else {
    return 0;
  }
}

/// Storage for the adjoint of an active scalar; a byte otherwise.
template <char Kind, class P>
using AdjointSlot = std::conditional_t<Kind == 'A', P, char>;

template <char Kind, class P, class A, class Slot>
SLOPE_HD constexpr auto reverse_shadow_of(A &arg, Slot &slot) {
  if constexpr (Kind == 'A')
    return &slot;
  else if constexpr (Kind == 'D')
    return arg.shadow; // marker_operand drops const
  else
    return nullptr;
}

/// Vector reverse mode: lane \p Lane's adjoint destination or shadow.
template <char Kind, std::size_t Lane, class A, class Slot>
SLOPE_HD constexpr auto lane_shadow_of(A &arg, Slot &slot) {
  if constexpr (Kind == 'A')
    return &slot[Lane];
  else if constexpr (Kind == 'D')
    return arg.shadow[Lane]; // marker_operand drops const
  else
    return nullptr;
}

/// Vector reverse mode: an active scalar's adjoint in each lane.
template <char Kind, class P, std::size_t Width>
using LaneAdjointSlot =
    std::conditional_t<Kind == 'A', std::array<P, Width>, char>;

/// Vector forward mode: lane \p Lane's tangent or shadow.
template <char Kind, std::size_t Lane, class P, class A>
SLOPE_HD constexpr auto forward_lane_shadow_of(A &arg) {
  if constexpr (Kind == 'A' && IsDualLanes<std::decay_t<A>>::value)
    return static_cast<P>(arg.tangent[Lane]);
  else if constexpr (Kind == 'A') // a misuse, already reported
    return static_cast<P>(arg.tangent);
  else if constexpr (Kind == 'D')
    return arg.shadow[Lane]; // marker_operand drops const
  else
    return nullptr;
}

template <char Kind, class P, class A>
SLOPE_HD constexpr auto forward_shadow_of(A &arg) {
  if constexpr (Kind == 'A')
    return static_cast<P>(arg.tangent);
  else if constexpr (Kind == 'D')
    return arg.shadow; // marker_operand drops const
  else
    return nullptr;
}

/// Holds a primal result of type R (nothing for void).
template <class R> struct ResultSlot {
  R value{};
  SLOPE_HD void *address() { return &value; }
};
template <> struct ResultSlot<void> {
  SLOPE_HD void *address() { return nullptr; }
};

/// Positions of the active arguments among all arguments (scalars by
/// value, 'A', or by const reference, 'R').
template <char... Kinds> struct ActivePositions {
  static constexpr bool active(char Kind) { return Kind == 'A' || Kind == 'R'; }
  static constexpr std::size_t count = ((active(Kinds) ? 1 : 0) + ... + 0);
  struct Array {
    std::size_t at[count == 0 ? 1 : count];
  };
  static constexpr Array value = [] {
    Array result{};
    constexpr char kinds[] = {Kinds..., '\0'};
    std::size_t next = 0;
    for (std::size_t i = 0; i + 1 < sizeof(kinds); ++i)
      if (active(kinds[i]))
        result.at[next++] = i;
    return result;
  }();
};

} // namespace slope::detail

#endif
