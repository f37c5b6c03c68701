// Result types of value_and_grad and value_and_derivative.
#ifndef SLOPE_RESULTS_HPP
#define SLOPE_RESULTS_HPP

#include <type_traits>

#include <slope/wrappers.hpp>

namespace slope {

namespace detail {
template <class R> struct ResultSlot;
}

/// `.value` (absent for a void function) and `.grad` (absent when there are
/// no active scalar arguments).
template <class V, class G> struct ValueAndGrad {
  V value;
  G grad;
  SLOPE_HD ValueAndGrad(detail::ResultSlot<V> &v, G g)
      : value(v.value), grad(g) {}
};
template <class V> struct ValueAndGrad<V, void> {
  V value;
  SLOPE_HD explicit ValueAndGrad(detail::ResultSlot<V> &v) : value(v.value) {}
};
template <class G> struct ValueAndGrad<void, G> {
  G grad;
  SLOPE_HD ValueAndGrad(detail::ResultSlot<void> &, G g) : grad(g) {}
};
template <> struct ValueAndGrad<void, void> {
  SLOPE_HD explicit ValueAndGrad(detail::ResultSlot<void> &) {}
};

/// `.value` and `.derivative` (in vector mode a std::array, one tangent
/// per lane).
template <class V, class D = V> struct ValueAndDerivative {
  V value;
  D derivative;
};

} // namespace slope

#endif
