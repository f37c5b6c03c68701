// The marker calls the IR pass replaces with calls to generated derivatives.
//
// Operands, in order: the target function, its activity descriptor (one
// character per parameter: 'A' active, 'C' constant, 'I' inactive, 'D' dup),
// where to store the primal result (null for void), [forward mode: where to
// store the result's tangent], then one primal operand per parameter, then
// one shadow operand per parameter (reverse: pointer receiving the adjoint
// of an active scalar; forward: the tangent of an active scalar; both: the
// shadow pointer of a dup; null otherwise). Vector reverse mode: see
// LaneDescriptor. Reverse mode then passes one size_t per parameter: the
// bytes the caller said may be accessed through it (slope::dup(x, dx, n),
// slope::constant(p, n)), 0 when it did not say.
#ifndef SLOPE_DETAIL_MARKER_HPP
#define SLOPE_DETAIL_MARKER_HPP

#include <slope/wrappers.hpp>

#include <cstddef>
#include <type_traits>

namespace slope::detail {

// Operands are only builtin types (pointers travel as void*, enums as their
// underlying type), so that user types with internal linkage never give the
// marker internal linkage.
template <class... Operands>
SLOPE_HD void reverse_marker(const void *, const char *, void *, Operands...);

template <class... Operands>
SLOPE_HD void forward_marker(const void *, const char *, void *, void *,
                             Operands...);

/// How an operand of parameter type P travels to the marker.
template <class P> SLOPE_HD constexpr auto marker_operand(P value) {
  if constexpr (std::is_pointer_v<P>)
    return const_cast<void *>(static_cast<const volatile void *>(value));
  else if constexpr (std::is_enum_v<P>)
    return static_cast<std::underlying_type_t<P>>(value);
  else
    return value;
}

template <char... Kinds> struct Descriptor {
  static constexpr char value[] = {Kinds..., '\0'};
};

/// Vector reverse mode: the kinds, '/', and the number of lanes in two
/// digits ("DAD/02"); one shadow operand per parameter follows the primals
/// for each lane in turn.
template <std::size_t Width, char... Kinds> struct LaneDescriptor {
  static_assert(Width <= 64, "slope: at most 64 lanes");
  static constexpr char value[] = {Kinds..., '/', char('0' + Width / 10),
                                   char('0' + Width % 10), '\0'};
};

} // namespace slope::detail

#endif
