// The machinery behind slope/operations.hpp: how the arguments of a named
// operation (jvp, vjp, jacobian, hessian, hvp) become the arguments of
// grad and derivative calls, one lane per direction.
//
// An operation sees its target F as one vector function from inputs to
// outputs. The inputs are the wrt(...) arguments in argument order (an
// array's elements; a scalar is one element); the outputs are F's
// floating-point result, if it has one, followed by the out(...) arrays.
// F's result is stored through a pointer by value_into<F>, so that reverse
// mode seeds it per lane like any output array.
#ifndef SLOPE_DETAIL_OPERATIONS_HPP
#define SLOPE_DETAIL_OPERATIONS_HPP

#include <slope/slope.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace slope {

/// An input array of a named operation: it differentiates with respect to
/// the \c size elements at \c data.
template <class T> struct Wrt {
  T *data;
  std::size_t size;
};
/// An input scalar of a named operation.
template <class T> struct WrtScalar {
  T value;
};
/// An output array of a named operation: the function writes \c size
/// elements at \c data.
template <class T> struct Out {
  T *data;
  std::size_t size;
};
/// Where a named operation writes its result instead of returning it.
template <class T> struct Into {
  T *data;
};

namespace detail::ops {

/// Lanes per sweep: Jacobian columns (forward) or rows (reverse) computed
/// by one call.
inline constexpr std::size_t chunk_width = 8;

enum class Role { Input, Scalar, Output, Other };

template <class A> struct RoleOf {
  static constexpr Role value = Role::Other;
};
template <class T> struct RoleOf<Wrt<T>> {
  static constexpr Role value = Role::Input;
  using element = std::remove_const_t<T>;
};
template <class T> struct RoleOf<WrtScalar<T>> {
  static constexpr Role value = Role::Scalar;
  using element = T;
};
template <class T> struct RoleOf<Out<T>> {
  static constexpr Role value = Role::Output;
  using element = T;
};
template <class A>
inline constexpr Role role_v = RoleOf<std::decay_t<A>>::value;

template <Role... R> struct Roles {};

template <class A> struct IsReadOnlyInput : std::false_type {};
template <class T> struct IsReadOnlyInput<Wrt<const T>> : std::true_type {};

template <class T> struct IsInto : std::false_type {};
template <class T> struct IsInto<Into<T>> : std::true_type {};
template <class A>
inline constexpr bool is_into_v = IsInto<std::decay_t<A>>::value;

/// The element type of the first wrt or out argument (void if none).
template <class... A> struct ElementOf {
  using type = void;
};
template <class A, class... Rest> struct ElementOf<A, Rest...> {
  template <class D, class = void> struct Pick {
    using type = typename ElementOf<Rest...>::type;
  };
  template <class D> struct Pick<D, std::void_t<typename RoleOf<D>::element>> {
    using type = typename RoleOf<D>::element;
  };
  using type = typename Pick<std::decay_t<A>>::type;
};
template <class... A> using element_t = typename ElementOf<A...>::type;

/// A parameter of type P that is neither differentiated nor an output, in
/// the form grad and derivative take constants: scalars and pointers
/// wrapped, objects by address, integers as they are.
template <class P, class V> auto constant_argument(V &v) {
  using D = std::decay_t<V>;
  if constexpr (IsConstant<D>::value)
    return v;
  else if constexpr (std::is_reference_v<P> || std::is_class_v<P> ||
                     std::is_union_v<P>)
    return slope::constant(&v);
  else if constexpr (std::is_floating_point_v<D> || std::is_pointer_v<D>)
    return slope::constant(v);
  else
    return v;
}

/// F as a plain function pointer.
template <auto F> constexpr auto target() {
  constexpr auto G = plain_target<F>();
  static_assert(std::is_pointer_v<decltype(G)>,
                "slope: the named operations (jvp, vjp, jacobian, hessian, "
                "hvp) take a function, a static member function or a "
                "captureless lambda; call a member function from a free "
                "function and pass that");
  return G;
}

template <class Fn> struct Signature;
template <class R, class... P> struct Signature<R (*)(P...)> {
  using result = R;
  using params = std::tuple<P...>;
};
template <class R, class... P>
struct Signature<R (*)(P...) noexcept> : Signature<R (*)(P...)> {};
template <auto F> using SignatureOf = Signature<decltype(target<F>())>;

/// F, its floating-point result (if any) stored to *r: the result becomes
/// an output array of one element.
template <auto F, class T, class... P> void value_into(T *r, P... p) {
  if constexpr (std::is_floating_point_v<decltype(target<F>()(p...))>)
    *r = static_cast<T>(target<F>()(p...));
  else
    target<F>()(p...);
}

/// Stores what grad returned for the wrt scalars (a value, or a std::tuple
/// of them; per lane a std::array) at their offsets in g; lane L of a
/// lane-wise result goes to g + L * stride.
template <class T, Role... R> struct ScalarAdjoints {
  static constexpr std::size_t count = ((R == Role::Scalar) + ... + 0);
  static constexpr std::array<std::size_t, sizeof...(R) + 1> positions() {
    std::array<std::size_t, sizeof...(R) + 1> at{};
    std::size_t k = 0, i = 0;
    Role roles[] = {R..., Role::Other};
    for (; i < sizeof...(R); ++i)
      if (roles[i] == Role::Scalar)
        at[k++] = i;
    return at;
  }

  template <class V>
  static void one(std::size_t k, const V &adjoint, T *g,
                  const std::size_t *offsets, std::size_t stride) {
    std::size_t at = offsets[positions()[k]];
    if constexpr (std::is_floating_point_v<V>)
      g[at] = static_cast<T>(adjoint);
    else
      for (std::size_t lane = 0; lane < adjoint.size(); ++lane)
        g[lane * stride + at] = static_cast<T>(adjoint[lane]);
  }
  template <class Result, std::size_t... K>
  static void all(const Result &result, T *g, const std::size_t *offsets,
                  std::size_t stride, std::index_sequence<K...>) {
    (one(K, std::get<K>(result), g, offsets, stride), ...);
  }
  template <class Result>
  static void store(const Result &result, T *g, const std::size_t *offsets,
                    std::size_t stride) {
    if constexpr (count == 1)
      one(0, result, g, offsets, stride);
    else
      all(result, g, offsets, stride, std::make_index_sequence<count>{});
  }
};

/// grad<F>'s argument for a parameter of type P inside GradientOf.
template <Role R, class P, class T>
auto gradient_argument(P &p, T *g, std::size_t offset) {
  if constexpr (R == Role::Input)
    return slope::dup(p, g + offset);
  else if constexpr (R == Role::Scalar)
    return p;
  else
    return constant_argument<P>(p);
}

/// The gradient of scalar F with respect to its wrt arguments, added to g
/// at each one's offset: what hessian and hvp differentiate in forward
/// mode.
template <auto F, class T, class RoleList, class... P> struct GradientOf;
template <auto F, class T, Role... R, class... P>
struct GradientOf<F, T, Roles<R...>, P...> {
  static void into(T *g, const std::size_t *offsets, P... p) {
    call(std::index_sequence_for<P...>{}, g, offsets, p...);
  }
  template <std::size_t... I>
  static void call(std::index_sequence<I...>, T *g, const std::size_t *offsets,
                   P &...p) {
    using Result =
        decltype(slope::grad<F>(gradient_argument<R, P>(p, g, offsets[I])...));
    if constexpr (std::is_void_v<Result>)
      slope::grad<F>(gradient_argument<R, P>(p, g, offsets[I])...);
    else
      ScalarAdjoints<T, R...>::store(
          slope::grad<F>(gradient_argument<R, P>(p, g, offsets[I])...), g,
          offsets, 0);
  }
};

/// Lane shadows: one pointer, or one per lane (base + L * stride + at).
template <std::size_t W, class T, std::size_t... L>
auto shadows(T *base, std::size_t stride, std::size_t at,
             std::index_sequence<L...>) {
  if constexpr (W == 1)
    return base + at;
  else
    return slope::lanes((base + L * stride + at)...);
}
/// Lane tangents of a scalar: one value, or one per lane.
template <std::size_t W, class T, std::size_t... L>
auto tangents(const T *base, std::size_t stride, std::size_t at,
              std::index_sequence<L...>) {
  if constexpr (W == 1)
    return base[at];
  else
    return slope::lanes(base[L * stride + at]...);
}

[[noreturn]] inline void size_mismatch(std::size_t given, std::size_t wanted,
                                       const char *what, const char *of) {
  std::fprintf(stderr,
               "slope: the %s has %zu elements, but the function has %zu "
               "%s\n",
               what, given, wanted, of);
  std::abort();
}

/// The elements of a direction or cotangent given as a pointer, or as a
/// container whose size must be \p wanted.
template <class T, class V>
const T *vector_data(const V &v, std::size_t wanted, const char *what,
                     const char *of) {
  if constexpr (std::is_pointer_v<std::decay_t<V>>) {
    return v;
  } else {
    if (static_cast<std::size_t>(v.size()) != wanted)
      size_mismatch(v.size(), wanted, what, of);
    return v.data();
  }
}

/// Whether the arguments \p A... suit F (each failed check is one
/// message; the operation then stops there).
template <auto F, class... A> constexpr bool arguments_fit() {
  constexpr bool any_input = !std::is_void_v<element_t<A...>>;
  constexpr bool arity =
      std::tuple_size_v<typename SignatureOf<F>::params> == sizeof...(A);
  static_assert(any_input,
                "slope: name what to differentiate with respect to: "
                "slope::wrt(x, n) for an array, slope::wrt(s) for a scalar");
  static_assert(!any_input || arity,
                "slope: a named operation takes one argument per parameter "
                "of the function (wrt, out, or the value itself)");
  return any_input && arity;
}

/// One named operation's target and arguments: the layout of its input
/// and output vectors, and its sweeps.
template <auto F, class... A> class Operation {
public:
  using T = element_t<A...>;
  using Params = typename SignatureOf<F>::params;
  static constexpr bool has_value =
      std::is_floating_point_v<typename SignatureOf<F>::result>;

  explicit Operation(A &...args) : args(args...) {
    outputs = has_value ? 1 : 0;
    (place(args), ...);
  }

  std::size_t inputs = 0, outputs = 0;

  /// Whether F may write a wrt array (forward mode then writes its
  /// tangents where the direction was).
  static constexpr bool writes_inputs =
      ((role_v<A> == Role::Input && !IsReadOnlyInput<std::decay_t<A>>::value) ||
       ... || false);

  /// Forward mode over F: lane L's input direction at dir + L * inputs
  /// (overwritten where F writes an input in place), its output tangents
  /// to tangent + L * outputs.
  template <std::size_t W> void forward(T *dir, T *tangent) {
    prepare();
    forwardCall<W>(dir, tangent, std::index_sequence_for<A...>{},
                   std::make_index_sequence<W>{});
  }

  /// Reverse mode over F: lane L's output seeds at seed + L * outputs
  /// (zeroed on return), its input adjoints added to adjoint + L * inputs.
  template <std::size_t W> void reverse(T *seed, T *adjoint) {
    prepare();
    reverseCall<W>(seed, adjoint, std::index_sequence_for<A...>{},
                   std::make_index_sequence<W>{});
  }

  /// Forward mode over F's gradient (F scalar): lane L's Hessian-vector
  /// product for the direction at dir + L * inputs, to hv + L * inputs.
  template <std::size_t W> void forwardOverReverse(T *dir, T *hv) {
    static_assert(has_value && !any_output,
                  "slope: hessian and hvp take a function with a "
                  "floating-point result and no out(...) arguments");
    prepare();
    std::fill(hv, hv + W * inputs, T(0));
    std::vector<T> gradient(inputs);
    gradientCall<W>(dir, hv, gradient.data(), std::index_sequence_for<A...>{},
                    std::make_index_sequence<W>{});
  }

private:
  static constexpr bool any_output =
      ((role_v<A> == Role::Output) || ... || false);
  template <std::size_t I> using P = std::tuple_element_t<I, Params>;
  template <std::size_t I>
  static constexpr Role role =
      role_v<std::tuple_element_t<I, std::tuple<A...>>>;

  std::tuple<A &...> args;
  // Each argument's offset in the input and output vectors.
  std::array<std::size_t, sizeof...(A) + 1> in{}, out{};
  std::size_t placed = 0;
  /// What non-constant inputs and outputs held before the first sweep:
  /// each later sweep starts from it, so that an in-place function is
  /// differentiated at the caller's point every time and ends as one
  /// plain call leaves it.
  std::vector<std::pair<T *, std::vector<T>>> saved;
  bool swept = false;
  T value{};

  template <class X> void place(X &a) {
    constexpr Role R = role_v<X>;
    in[placed] = inputs;
    out[placed++] = outputs;
    if constexpr (R == Role::Input) {
      inputs += a.size;
      if constexpr (!std::is_const_v<std::remove_pointer_t<decltype(a.data)>>)
        saved.emplace_back(a.data, std::vector<T>(a.data, a.data + a.size));
    } else if constexpr (R == Role::Scalar) {
      inputs += 1;
    } else if constexpr (R == Role::Output) {
      outputs += a.size;
      saved.emplace_back(a.data, std::vector<T>(a.data, a.data + a.size));
    }
  }

  void prepare() {
    if (swept)
      for (auto &[where, values] : saved)
        std::copy(values.begin(), values.end(), where);
    swept = true;
  }

  template <std::size_t W, std::size_t I, class Lanes>
  auto forwardArgument(T *dir, T *tangent, Lanes lanes) {
    auto &a = std::get<I>(args);
    if constexpr (role<I> == Role::Input)
      return slope::dup(a.data, shadows<W>(dir, inputs, in[I], lanes));
    else if constexpr (role<I> == Role::Scalar)
      return slope::dual(a.value, tangents<W>(dir, inputs, in[I], lanes));
    else if constexpr (role<I> == Role::Output)
      return slope::dup(a.data, shadows<W>(tangent, outputs, out[I], lanes));
    else
      return constant_argument<P<I>>(a);
  }

  template <std::size_t W, std::size_t I, class Lanes>
  auto reverseArgument(T *seed, T *adjoint, Lanes lanes) {
    auto &a = std::get<I>(args);
    if constexpr (role<I> == Role::Input)
      return slope::dup(a.data, shadows<W>(adjoint, inputs, in[I], lanes));
    else if constexpr (role<I> == Role::Scalar)
      return a.value;
    else if constexpr (role<I> == Role::Output)
      return slope::dup(a.data, shadows<W>(seed, outputs, out[I], lanes));
    else
      return constant_argument<P<I>>(a);
  }

  /// The operand for value_into's result pointer.
  template <std::size_t W, class Lanes>
  auto valueArgument(T *shadow, Lanes lanes) {
    if constexpr (has_value)
      return slope::dup(&value, shadows<W>(shadow, outputs, 0, lanes));
    else
      return slope::constant(static_cast<T *>(nullptr));
  }

  template <std::size_t W, std::size_t... I, std::size_t... L>
  void forwardCall(T *dir, T *tangent, std::index_sequence<I...>,
                   std::index_sequence<L...> lanes) {
    slope::derivative<&value_into<F, T, P<I>...>>(
        valueArgument<W>(tangent, lanes),
        forwardArgument<W, I>(dir, tangent, lanes)...);
  }

  template <std::size_t W, std::size_t... I, std::size_t... L>
  void reverseCall(T *seed, T *adjoint, std::index_sequence<I...>,
                   std::index_sequence<L...> lanes) {
    using Result = decltype(slope::grad<&value_into<F, T, P<I>...>>(
        valueArgument<W>(seed, lanes),
        reverseArgument<W, I>(seed, adjoint, lanes)...));
    if constexpr (std::is_void_v<Result>)
      slope::grad<&value_into<F, T, P<I>...>>(
          valueArgument<W>(seed, lanes),
          reverseArgument<W, I>(seed, adjoint, lanes)...);
    else
      ScalarAdjoints<T, role<I>...>::store(
          slope::grad<&value_into<F, T, P<I>...>>(
              valueArgument<W>(seed, lanes),
              reverseArgument<W, I>(seed, adjoint, lanes)...),
          adjoint, in.data(), inputs);
  }

  template <std::size_t W, std::size_t... I, std::size_t... L>
  void gradientCall(T *dir, T *hv, T *gradient, std::index_sequence<I...>,
                    std::index_sequence<L...> lanes) {
    using Gradient = GradientOf<F, T, Roles<role<I>...>, P<I>...>;
    const std::size_t *offsets = in.data();
    slope::derivative<&Gradient::into>(
        slope::dup(gradient, shadows<W>(hv, inputs, 0, lanes)), offsets,
        forwardArgument<W, I>(dir, nullptr, lanes)...);
  }
};

} // namespace detail::ops
} // namespace slope

#endif
