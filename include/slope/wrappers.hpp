// Argument wrappers of the Slope API: how a caller marks activity.
#ifndef SLOPE_WRAPPERS_HPP
#define SLOPE_WRAPPERS_HPP

#include <cstddef>
#include <type_traits>
#include <utility>

#if !defined(__CUDA__)
#include <cstdio>
#include <cstdlib>
#endif

#if defined(__CUDA__)
#define SLOPE_HD __attribute__((host, device))
#else
#define SLOPE_HD
#endif

namespace slope {

/// An argument that is not differentiated (a scalar or a pointer).
/// `extent` is a pointer's number of elements, 0 when unknown.
template <class T> struct Constant {
  T value;
  std::size_t extent = 0;
};

/// A pointer argument with its shadow: adjoints (reverse mode) or tangents
/// (forward mode) of the data it points to. `extent` is 0 when unknown.
template <class T> struct Dup {
  T *primal;
  T *shadow;
  std::size_t extent;
};

/// A value with its tangent: an active scalar in forward mode, and what a
/// custom forward rule returns.
template <class T> struct Dual {
  T value;
  T tangent;
};

template <class T> SLOPE_HD constexpr Constant<T> constant(T value) {
  return {value};
}

/// A pointer argument that is not differentiated, with the number of
/// elements the function may access through it (see dup(x, dx, n)).
template <class T>
SLOPE_HD constexpr Constant<T *> constant(T *value, std::size_t extent) {
  return {value, extent};
}

template <class T>
SLOPE_HD constexpr Dup<T> dup(T *primal, T *shadow, std::size_t extent = 0) {
  return {primal, shadow, extent};
}

/// A read-only input with its (writable) shadow: adjoints accumulate there.
template <class T>
SLOPE_HD constexpr Dup<const T> dup(const T *primal, T *shadow,
                                    std::size_t extent = 0) {
  return {primal, shadow, extent};
}

namespace detail {
template <class T, class = void> struct HasSize : std::false_type {};
template <class T>
struct HasSize<T, std::void_t<decltype(std::declval<const T &>().size())>>
    : std::true_type {};

template <class T>
inline constexpr bool is_dup_object_v =
    !std::is_pointer_v<T> && !std::is_array_v<T> && !std::is_function_v<T>;

/// A container and its shadow must have the same number of elements: the
/// derivative would otherwise read or write past the shadow's end.
template <class T>
SLOPE_HD void check_shadow_size(const T &primal, const T &shadow) {
  if constexpr (HasSize<T>::value) {
    if (primal.size() != shadow.size()) {
#if defined(__CUDA_ARCH__)
      __builtin_trap();
#elif defined(__CUDA__) // without the C library headers (-nocudainc)
      __builtin_printf("slope::dup(x, dx): dx and x differ in size\n");
      __builtin_abort();
#else
      std::fprintf(stderr,
                   "slope::dup(x, dx): dx has %zu elements but x has %zu; "
                   "give the shadow x's size\n",
                   static_cast<std::size_t>(shadow.size()),
                   static_cast<std::size_t>(primal.size()));
      std::abort();
#endif
    }
  }
}

template <class T, class = void> struct CanGrow : std::false_type {};
template <class T>
struct CanGrow<T, std::void_t<decltype(std::declval<T &>().reserve(0)),
                              decltype(std::declval<T &>().capacity()),
                              decltype(std::declval<T &>().data())>>
    : std::true_type {};

/// A writable container may grow inside the function. What it appends
/// within its capacity has its shadow in the shadow's capacity: that must
/// be at least as large, and zero (appended elements start with zero
/// tangents and seeds). Where it outgrows its capacity, the shadow gets
/// new storage from the same allocator (the derivative mirrors it).
template <class T>
SLOPE_HD void prepare_shadow_capacity(const T &primal, T &shadow) {
  if constexpr (CanGrow<T>::value) {
    if (shadow.capacity() < primal.capacity())
      shadow.reserve(primal.capacity());
    auto *tail = shadow.data() + shadow.size();
    __builtin_memset(static_cast<void *>(tail), 0,
                     (shadow.capacity() - shadow.size()) * sizeof(*tail));
  }
}
} // namespace detail

/// An object (a scalar, a struct, a container) with its shadow, for a
/// reference or class-type parameter, or a member function's object.
/// Containers must have equal sizes (checked when the program runs).
template <class T, class = std::enable_if_t<detail::is_dup_object_v<T>>>
SLOPE_HD Dup<T> dup(T &primal, T &shadow) {
  detail::check_shadow_size(primal, shadow);
  detail::prepare_shadow_capacity(primal, shadow);
  return {&primal, &shadow, 1};
}
template <class T, class = std::enable_if_t<detail::is_dup_object_v<T>>>
SLOPE_HD Dup<const T> dup(const T &primal, T &shadow) {
  detail::check_shadow_size(primal, shadow);
  return {&primal, &shadow, 1};
}

/// One shadow pointer (or, for slope::dual, one tangent) per lane of
/// vector mode: `slope::dup(x, slope::lanes(dx0, dx1))`,
/// `slope::dual(x, slope::lanes(1.0, 0.0))`. In reverse mode every lane is
/// its own gradient: lane k's output seeds come from shadow k of each
/// output, and its adjoints accumulate into shadow k of each input. In
/// forward mode every lane is its own direction.
template <class T, std::size_t N> struct Lanes { T value[N]; };

/// A pointer argument with one shadow per lane (see Lanes).
template <class T, std::size_t N> struct DupLanes {
  T *primal;
  T *shadow[N];
  std::size_t extent;
};

/// A forward-mode scalar with one tangent per lane (see Lanes).
template <class T, std::size_t N> struct DualLanes {
  T value;
  T tangent[N];
};

template <class T, class... U>
SLOPE_HD constexpr Lanes<T, 1 + sizeof...(U)> lanes(T first, U... rest) {
  static_assert(sizeof...(U) < 64, "slope: at most 64 lanes");
  return {{first, static_cast<T>(rest)...}};
}

template <class T, std::size_t N>
SLOPE_HD constexpr DupLanes<T, N> dup(T *primal, Lanes<T *, N> shadows,
                                      std::size_t extent = 0) {
  DupLanes<T, N> result{primal, {}, extent};
  for (std::size_t i = 0; i < N; ++i)
    result.shadow[i] = shadows.value[i];
  return result;
}

template <class T, std::size_t N>
SLOPE_HD constexpr DupLanes<const T, N>
dup(const T *primal, Lanes<T *, N> shadows, std::size_t extent = 0) {
  DupLanes<const T, N> result{primal, {}, extent};
  for (std::size_t i = 0; i < N; ++i)
    result.shadow[i] = shadows.value[i];
  return result;
}

/// An object (a struct, a container) with one shadow object per lane,
/// given by address: `slope::dup(v, slope::lanes(&dv0, &dv1))`.
/// Containers must have equal sizes (checked when the program runs).
template <class T, std::size_t N,
          class = std::enable_if_t<detail::is_dup_object_v<T>>>
SLOPE_HD DupLanes<T, N> dup(T &primal, Lanes<T *, N> shadows) {
  DupLanes<T, N> result{&primal, {}, 1};
  for (std::size_t i = 0; i < N; ++i) {
    detail::check_shadow_size(primal, *shadows.value[i]);
    detail::prepare_shadow_capacity(primal, *shadows.value[i]);
    result.shadow[i] = shadows.value[i];
  }
  return result;
}
template <class T, std::size_t N,
          class = std::enable_if_t<detail::is_dup_object_v<T>>>
SLOPE_HD DupLanes<const T, N> dup(const T &primal, Lanes<T *, N> shadows) {
  DupLanes<const T, N> result{&primal, {}, 1};
  for (std::size_t i = 0; i < N; ++i) {
    detail::check_shadow_size(primal, *shadows.value[i]);
    result.shadow[i] = shadows.value[i];
  }
  return result;
}

namespace detail {
template <class T> struct IsLanes : std::false_type {};
template <class T, std::size_t N>
struct IsLanes<Lanes<T, N>> : std::true_type {};
template <class T> using Bare = std::remove_cv_t<std::remove_reference_t<T>>;
template <class T, class U>
inline constexpr bool is_mismatched_shadow_v =
    is_dup_object_v<Bare<T>> &&is_dup_object_v<Bare<U>> &&
    !IsLanes<Bare<U>>::value && !std::is_same_v<Bare<T>, Bare<U>>;
} // namespace detail

/// A shadow object of another type than its primal: one message.
template <class T, class U,
          class = std::enable_if_t<detail::is_mismatched_shadow_v<T, U>>>
SLOPE_HD constexpr Dup<detail::Bare<T>> dup(T &&, U &&) {
  static_assert(!detail::is_mismatched_shadow_v<T, U>,
                "slope: the shadow in slope::dup(x, dx) must have x's own "
                "type (a std::vector<double> for a std::vector<double>, "
                "writable)");
  return {};
}

/// Lanes of shadow objects by value would be copies: one message.
template <class T, class S, std::size_t N,
          class = std::enable_if_t<!std::is_pointer_v<std::decay_t<T>> &&
                                   !std::is_pointer_v<S>>>
SLOPE_HD constexpr auto dup(T &&, Lanes<S, N>) {
  static_assert(std::is_pointer_v<S>,
                "slope: the shadows of an object in vector mode are given by "
                "address: slope::dup(v, slope::lanes(&dv0, &dv1))");
  return DupLanes<double, N>{};
}

template <class T, class U, std::size_t N>
SLOPE_HD constexpr DualLanes<T, N> dual(T value, Lanes<U, N> tangents) {
  DualLanes<T, N> result{value, {}};
  for (std::size_t i = 0; i < N; ++i)
    result.tangent[i] = static_cast<T>(tangents.value[i]);
  return result;
}

template <class T, class U>
SLOPE_HD constexpr Dual<T> dual(T value, U tangent) {
  return {value, static_cast<T>(tangent)};
}

} // namespace slope

#endif
