// Slope: compiler-integrated automatic differentiation for C and C++.
//
// Compile with clang++-19 -fplugin=<build>/SlopeClang.so. Without the plugin,
// every use of the API below is a compile error saying so.
#ifndef SLOPE_SLOPE_HPP
#define SLOPE_SLOPE_HPP

#include <slope/custom.hpp>
#include <slope/detail/calls.hpp>
#include <slope/results.hpp>
#include <slope/wrappers.hpp>

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
  return detail::CallOf<F>::template reverse<detail::function_pointer<F>(),
                                             false>(
      std::forward<Args>(args)...);
}

/// Reverse mode with the primal result: `.value` and `.grad`.
template <auto F, class... Args> SLOPE_HD auto value_and_grad(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  return detail::CallOf<F>::template reverse<detail::function_pointer<F>(),
                                             true>(std::forward<Args>(args)...);
}

/// Forward mode: the tangent of F's result, given slope::dual arguments.
template <auto F, class... Args> SLOPE_HD auto derivative(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  return detail::CallOf<F>::template forward<detail::function_pointer<F>(),
                                             false>(
      std::forward<Args>(args)...);
}

/// Forward mode with the primal result: `.value` and `.derivative`.
template <auto F, class... Args>
SLOPE_HD auto value_and_derivative(Args &&...args) {
  SLOPE_REQUIRE_PLUGIN_;
  return detail::CallOf<F>::template forward<detail::function_pointer<F>(),
                                             true>(std::forward<Args>(args)...);
}

#undef SLOPE_REQUIRE_PLUGIN_

} // namespace slope

#endif
