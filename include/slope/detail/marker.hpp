// The marker calls the IR pass replaces with calls to generated derivatives.
//
// Operands, in order: the target function, its activity descriptor (one
// character per parameter: 'A' active, 'C' constant, 'I' inactive, 'D' dup),
// where to store the primal result (null for void), [forward mode: where to
// store the result's tangent], then one primal operand per parameter, then
// one shadow operand per parameter (reverse: pointer receiving the adjoint
// of an active scalar; forward: the tangent of an active scalar; both: the
// shadow pointer of a dup; null otherwise).
#ifndef SLOPE_DETAIL_MARKER_HPP
#define SLOPE_DETAIL_MARKER_HPP

#include <slope/wrappers.hpp>

namespace slope::detail {

template <class Fn, class... Operands>
SLOPE_HD void reverse_marker(Fn, const char *, void *, Operands...);

template <class Fn, class... Operands>
SLOPE_HD void forward_marker(Fn, const char *, void *, void *, Operands...);

template <char... Kinds> struct Descriptor {
  static constexpr char value[] = {Kinds..., '\0'};
};

} // namespace slope::detail

#endif
