// Slope: compiler-integrated automatic differentiation for C and C++.
//
// Compile with clang++-19 -fplugin=<build>/SlopeClang.so. Without the plugin,
// every use of the API below is a compile error saying so.
#ifndef SLOPE_SLOPE_HPP
#define SLOPE_SLOPE_HPP

#include <slope/custom.hpp>
#include <slope/detail/calls.hpp>
#include <slope/detail/record_results.hpp>
#include <slope/results.hpp>
#include <slope/wrappers.hpp>

#include <type_traits>
#include <utility>

#if defined(__has_attribute)
#if __has_attribute(slope_plugin)
#define SLOPE_PLUGIN_LOADED 1
#endif
#endif
#ifndef SLOPE_PLUGIN_LOADED
#define SLOPE_PLUGIN_LOADED 0
#endif

/// Marks a function as having no derivative: calls to it are never
/// differentiated, and its result is a constant to Slope.
#if SLOPE_PLUGIN_LOADED && defined(__clang__)
#define SLOPE_INACTIVE __attribute__((slope_inactive))
#else
#define SLOPE_INACTIVE
#endif

// Editors: clangd does not load compiler plugins. Defining SLOPE_EDITOR
// (in .clangd: CompileFlags: Add: [-DSLOPE_EDITOR]) silences the
// plugin-missing assertion so code using Slope indexes cleanly; nothing
// built that way can run.
#ifdef SLOPE_EDITOR
#define SLOPE_PLUGIN_OR_EDITOR 1
#else
#define SLOPE_PLUGIN_OR_EDITOR SLOPE_PLUGIN_LOADED
#endif

namespace slope {

namespace detail {
template <auto F>
inline constexpr bool plugin_loaded =
    SLOPE_PLUGIN_OR_EDITOR || always_false<decltype(F)>;
} // namespace detail

// Without the plugin only this assertion fires: the rest still type-checks,
// so the user sees one error that says what to do.
#define SLOPE_REQUIRE_PLUGIN_                                                  \
  static_assert(detail::plugin_loaded<F>,                                      \
                "slope: the Slope compiler plugin is not loaded; compile "     \
                "with clang++-19 -fplugin=/path/to/SlopeClang.so")

/// Reverse mode: the adjoints of the active scalar arguments (one value, a
/// std::tuple, or void); dup shadows accumulate adjoints.
template <auto F, class... Args> SLOPE_HD auto grad(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  if constexpr (detail::returns_record_v<F>)
    return detail::record_reverse<F, false>(std::forward<Args>(args)...);
  else
    return detail::CallOf<F>::template reverse<detail::function_pointer<F>(),
                                               false>(
        std::forward<Args>(args)...);
}

/// Reverse mode with the primal result: `.value` and `.grad`.
template <auto F, class... Args> SLOPE_HD auto value_and_grad(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  if constexpr (detail::returns_record_v<F>)
    return detail::record_reverse<F, true>(std::forward<Args>(args)...);
  else
    return detail::CallOf<F>::template reverse<detail::function_pointer<F>(),
                                               true>(
        std::forward<Args>(args)...);
}

/// Forward mode: the tangent of F's result, given slope::dual arguments.
template <auto F, class... Args> SLOPE_HD auto derivative(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  if constexpr (detail::returns_record_v<F>)
    return detail::record_forward<F, false>(std::forward<Args>(args)...);
  else
    return detail::CallOf<F>::template forward<detail::function_pointer<F>(),
                                               false>(
        std::forward<Args>(args)...);
}

/// Forward mode with the primal result: `.value` and `.derivative`.
template <auto F, class... Args>
SLOPE_HD auto value_and_derivative(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  if constexpr (detail::returns_record_v<F>)
    return detail::record_forward<F, true>(std::forward<Args>(args)...);
  else
    return detail::CallOf<F>::template forward<detail::function_pointer<F>(),
                                               true>(
        std::forward<Args>(args)...);
}

// A callable object -- a functor or a capturing lambda -- as the first
// argument: grad(f, x...) differentiates f(x...). Its state is constant;
// pass slope::dup(f, df) to differentiate that too (df: a functor of the
// same type whose fields receive the adjoints).
namespace detail {
template <class Fn> struct CallableObject { using type = Fn; };
template <class T> struct CallableObject<Dup<T>> {
  using type = std::remove_cv_t<T>;
};
template <class T> struct CallableObject<Constant<T *>> {
  using type = std::remove_cv_t<T>;
};
template <class Fn>
using CallableObjectT = typename CallableObject<std::decay_t<Fn>>::type;

template <class Fn, class = void> struct HasCallOperator : std::false_type {};
template <class Fn>
struct HasCallOperator<Fn, std::void_t<decltype(&Fn::operator())>>
    : std::true_type {};

template <class Fn> constexpr auto call_operator() {
  static_assert(std::is_class_v<Fn>,
                "slope: pass the function to differentiate as a template "
                "argument: slope::grad<f>(x...); a callable object (a "
                "functor or lambda) may come first: slope::grad(f, x...)");
  static_assert(!std::is_class_v<Fn> || HasCallOperator<Fn>::value,
                "slope: the callable object has no single operator() (a "
                "generic lambda or an overloaded operator()); differentiate "
                "a member function instead: slope::grad<&T::name>(obj, ...)");
  if constexpr (HasCallOperator<Fn>::value)
    return &Fn::operator();
  else
    return nullptr;
}

/// The object argument of a callable: as given when wrapped, else constant.
template <class Fn> SLOPE_HD auto callable_argument(Fn &&f) {
  using D = std::decay_t<Fn>;
  if constexpr (IsDup<D>::value || IsConstant<D>::value)
    return f;
  else
    return slope::constant(__builtin_addressof(f));
}
} // namespace detail

template <class Fn, class... Args> SLOPE_HD auto grad(Fn &&f, Args &&...args) {
  return grad<detail::call_operator<detail::CallableObjectT<Fn>>()>(
      detail::callable_argument(std::forward<Fn>(f)),
      std::forward<Args>(args)...);
}
template <class Fn, class... Args>
SLOPE_HD auto value_and_grad(Fn &&f, Args &&...args) {
  return value_and_grad<detail::call_operator<detail::CallableObjectT<Fn>>()>(
      detail::callable_argument(std::forward<Fn>(f)),
      std::forward<Args>(args)...);
}
template <class Fn, class... Args>
SLOPE_HD auto derivative(Fn &&f, Args &&...args) {
  return derivative<detail::call_operator<detail::CallableObjectT<Fn>>()>(
      detail::callable_argument(std::forward<Fn>(f)),
      std::forward<Args>(args)...);
}
template <class Fn, class... Args>
SLOPE_HD auto value_and_derivative(Fn &&f, Args &&...args) {
  return value_and_derivative<
      detail::call_operator<detail::CallableObjectT<Fn>>()>(
      detail::callable_argument(std::forward<Fn>(f)),
      std::forward<Args>(args)...);
}

#undef SLOPE_REQUIRE_PLUGIN_

} // namespace slope

#endif
