// Targets the marker cannot name as they are: member functions, callable
// objects, and functions with reference or class-type parameters. Slope
// differentiates a plain function over scalars and pointers instead -- an
// adapter that calls the target (which then inlines into it) -- so every
// C++ parameter form becomes a pointer the core already handles, and a
// class passed by value is copied inside the differentiated code, where
// the copy's derivative is taken like any other.
#ifndef SLOPE_DETAIL_ADAPTER_HPP
#define SLOPE_DETAIL_ADAPTER_HPP

#include <type_traits>
#include <utility>

#include <slope/wrappers.hpp>

namespace slope::detail {

template <class P>
inline constexpr bool is_object_v = std::is_class_v<P> || std::is_union_v<P>;

/// How a parameter of type P reaches the adapter: references and objects
/// of class type as pointers, everything else as it is.
template <class P> struct LoweredParam {
  using type = std::conditional_t<is_object_v<P>, const P *, P>;
};
template <class P> struct LoweredParam<P &> { using type = P *; };
template <class P> struct LoweredParam<P &&> { using type = P *; };
template <class P> using Lowered = typename LoweredParam<P>::type;

/// The argument for a parameter of type P from its lowered form \p q.
template <class P, class Q> SLOPE_HD decltype(auto) raise(Q q) {
  if constexpr (std::is_lvalue_reference_v<P>)
    return *q;
  else if constexpr (std::is_rvalue_reference_v<P>)
    return std::move(*q);
  else if constexpr (is_object_v<P>)
    return *q; // the target's parameter is copied from it
  else
    return q;
}

template <class P>
inline constexpr bool needs_lowering_v =
    std::is_reference_v<P> || is_object_v<P>;

/// The adapter for target F of type Fn, and Source: the signature as the
/// caller sees it (a member function's object first, as a reference).
template <auto F, class Fn = decltype(F)> struct Adapter;

template <auto F, class R, class... P> struct Adapter<F, R (*)(P...)> {
  using Source = R (*)(P...);
  static constexpr bool needed = (needs_lowering_v<P> || ...);
  SLOPE_HD static R call(Lowered<P>... q) { return F(raise<P>(q)...); }
};
template <auto F, class R, class... P>
struct Adapter<F, R (*)(P...) noexcept> : Adapter<F, R (*)(P...)> {};

#define SLOPE_MEMBER_ADAPTER_(QUALIFIERS, SELF)                                \
  template <auto F, class C, class R, class... P>                              \
  struct Adapter<F, R (C::*)(P...) QUALIFIERS> {                               \
    using Source = R (*)(SELF &, P...);                                        \
    static constexpr bool needed = true;                                       \
    SLOPE_HD static R call(SELF *self, Lowered<P>... q) {                      \
      return (self->*F)(raise<P>(q)...);                                       \
    }                                                                          \
  };
SLOPE_MEMBER_ADAPTER_(, C)
SLOPE_MEMBER_ADAPTER_(const, const C)
SLOPE_MEMBER_ADAPTER_(noexcept, C)
SLOPE_MEMBER_ADAPTER_(const noexcept, const C)
#undef SLOPE_MEMBER_ADAPTER_

/// F as a function or member function pointer (a captureless lambda
/// converts to its function pointer).
template <auto F> SLOPE_HD constexpr auto plain_target() {
  using Fn = decltype(F);
  if constexpr (std::is_pointer_v<Fn> || std::is_member_function_pointer_v<Fn>)
    return F;
  else
    return +F;
}

template <auto F, class = void> struct AdapterFor {
  static constexpr bool needed = false;
};
template <auto F>
struct AdapterFor<F, std::void_t<typename Adapter<F>::Source>> : Adapter<F> {};

/// The function Slope differentiates for target F: F itself, or its
/// adapter.
template <auto F> SLOPE_HD constexpr auto function_pointer() {
  constexpr auto G = plain_target<F>();
  if constexpr (AdapterFor<G>::needed)
    return &Adapter<G>::call;
  else
    return G;
}

/// The signature the caller's arguments are checked against.
template <auto F, class = void> struct SourceSignature {
  using type = decltype(function_pointer<F>());
};
template <auto F>
struct SourceSignature<
    F, std::enable_if_t<AdapterFor<plain_target<F>()>::needed>> {
  using type = typename Adapter<plain_target<F>()>::Source;
};

} // namespace slope::detail

#endif
