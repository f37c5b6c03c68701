// Named derivative operations: Jacobian-vector and vector-Jacobian
// products, dense Jacobians and Hessians, Hessian-vector products.
//
//   double f(const double *x, int n);                 // scalar result
//   void g(const double *x, double a, double *y);     // outputs in y[0..m)
//
//   auto H  = slope::hessian<f>(slope::wrt(x, n), n);          // n x n
//   auto Hv = slope::hvp<f>(v, slope::wrt(x, n), n);           // H v
//   auto J  = slope::jacobian<g>(slope::wrt(x, n), a, slope::out(y, m));
//   auto Jv = slope::jvp<g>(v, slope::wrt(x, n), a, slope::out(y, m));
//   auto uJ = slope::vjp<g>(u, slope::wrt(x, n), a, slope::out(y, m));
//
// The arguments are those of a plain call of F, with what varies marked
// slope::wrt(x, n) (an array of n elements) or slope::wrt(s) (a scalar),
// and the arrays F writes as results marked slope::out(y, m). Everything
// else is held constant. The inputs are the wrt arguments in argument
// order, one vector; the outputs are F's floating-point result (if it has
// one) followed by the out arrays. Directions (v, u) are pointers or
// containers (std::vector, std::array) of that many elements.
//
// Results are std::vector of the wrt element type, matrices row-major:
// J[i * inputs + j] = d output_i / d input_j, H[i * inputs + j]. Given
// slope::into(buffer) first, an operation writes there and returns
// nothing (no allocation).
//
// Cost: jvp is one forward-mode call, vjp one reverse-mode call, hvp one
// forward-mode call over the reverse-mode gradient; jacobian and hessian
// run 8 directions per call (vector lanes): jacobian by columns in
// forward mode when inputs <= outputs, else by rows in reverse mode;
// hessian by columns of forward over reverse. Each call starts from the
// caller's values: where F writes a wrt or out array in place, it is put
// back before every call after the first, and ends as one plain call of F
// leaves it.
#ifndef SLOPE_OPERATIONS_HPP
#define SLOPE_OPERATIONS_HPP

#include <slope/detail/operations.hpp>
#include <slope/sparsity.hpp>

namespace slope {

/// An input array of n elements.
template <class T> constexpr Wrt<T> wrt(T *x, std::size_t n) { return {x, n}; }
/// An input scalar.
template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
constexpr WrtScalar<T> wrt(T x) {
  return {x};
}
/// An output array of m elements.
template <class T> constexpr Out<T> out(T *y, std::size_t m) {
  static_assert(!std::is_const_v<T>,
                "slope: an out(...) array is written by the function");
  return {y, m};
}
/// Where an operation writes its result (first argument).
template <class T> constexpr Into<T> into(T *buffer) { return {buffer}; }

namespace detail::ops {

template <class... A> using Element = element_t<std::decay_t<A>...>;

template <class T>
std::vector<T> unit_directions(std::size_t first, std::size_t count,
                               std::size_t length) {
  std::vector<T> directions(chunk_width * length);
  for (std::size_t lane = 0; lane < chunk_width && first + lane < count; ++lane)
    directions[lane * length + first + lane] = T(1);
  return directions;
}

/// The rows x columns matrix \p M (row-major) from products with unit
/// directions: \p sweep(dir, product) computes chunk_width matrix-vector
/// products (lane L's direction at dir + L * columns, its product to
/// product + L * rows).
template <class T, class Sweep>
void dense_columns(std::size_t rows, std::size_t columns, T *M, Sweep sweep) {
  std::vector<T> product(chunk_width * rows);
  for (std::size_t j0 = 0; j0 < columns; j0 += chunk_width) {
    std::vector<T> dir = unit_directions<T>(j0, columns, columns);
    sweep(dir.data(), product.data());
    for (std::size_t lane = 0; lane < chunk_width && j0 + lane < columns;
         ++lane)
      for (std::size_t i = 0; i < rows; ++i)
        M[i * columns + j0 + lane] = product[lane * rows + i];
  }
}

template <auto F, class... A>
void jacobian_into(typename Operation<F, A...>::T *J, A &...args) {
  using T = typename Operation<F, A...>::T;
  Operation<F, A...> op(args...);
  const std::size_t n = op.inputs, m = op.outputs;
  static_assert(Operation<F, A...>::has_value ||
                    ((role_v<A> == Role::Output) || ...),
                "slope: jacobian needs outputs: a floating-point result or "
                "out(...) arrays");
  if (n <= m) { // by columns
    dense_columns(m, n, J, [&](T *dir, T *tangent) {
      op.template forward<chunk_width>(dir, tangent);
    });
  } else { // by rows
    std::vector<T> adjoint(chunk_width * n);
    for (std::size_t i0 = 0; i0 < m; i0 += chunk_width) {
      std::vector<T> seed = unit_directions<T>(i0, m, m);
      std::fill(adjoint.begin(), adjoint.end(), T(0));
      op.template reverse<chunk_width>(seed.data(), adjoint.data());
      for (std::size_t lane = 0; lane < chunk_width && i0 + lane < m; ++lane)
        std::copy_n(adjoint.begin() + lane * n, n, J + (i0 + lane) * n);
    }
  }
}

template <auto F, class... A>
void hessian_into(typename Operation<F, A...>::T *H, A &...args) {
  using T = typename Operation<F, A...>::T;
  Operation<F, A...> op(args...);
  dense_columns(op.inputs, op.inputs, H, [&](T *dir, T *hv) {
    op.template forwardOverReverse<chunk_width>(dir, hv);
  });
}

template <auto F, class V, class... A>
void jvp_into(typename Operation<F, A...>::T *result, const V &v, A &...args) {
  using T = typename Operation<F, A...>::T;
  Operation<F, A...> op(args...);
  const T *given = vector_data<T>(v, op.inputs, "direction", "inputs");
  std::fill(result, result + op.outputs, T(0));
  if constexpr (Operation<F, A...>::writes_inputs) {
    std::vector<T> dir(given, given + op.inputs);
    op.template forward<1>(dir.data(), result);
  } else { // read only
    op.template forward<1>(const_cast<T *>(given), result);
  }
}

template <auto F, class U, class... A>
void vjp_into(typename Operation<F, A...>::T *result, const U &u, A &...args) {
  using T = typename Operation<F, A...>::T;
  Operation<F, A...> op(args...);
  const T *given = vector_data<T>(u, op.outputs, "cotangent", "outputs");
  std::vector<T> seed(given, given + op.outputs);
  std::fill(result, result + op.inputs, T(0));
  op.template reverse<1>(seed.data(), result);
}

template <auto F, class V, class... A>
void hvp_into(typename Operation<F, A...>::T *result, const V &v, A &...args) {
  using T = typename Operation<F, A...>::T;
  Operation<F, A...> op(args...);
  const T *given = vector_data<T>(v, op.inputs, "direction", "inputs");
  if constexpr (Operation<F, A...>::writes_inputs) {
    std::vector<T> dir(given, given + op.inputs);
    op.template forwardOverReverse<1>(dir.data(), result);
  } else { // read only
    op.template forwardOverReverse<1>(const_cast<T *>(given), result);
  }
}

[[noreturn]] inline void pattern_mismatch(const Sparsity &pattern,
                                          std::size_t rows,
                                          std::size_t columns) {
  std::fprintf(stderr,
               "slope: the sparsity pattern is %zu x %zu, but the matrix is "
               "%zu x %zu\n",
               pattern.rows, pattern.columns, rows, columns);
  std::abort();
}

/// The entries of a rows x columns matrix in \p pattern's order, from
/// products with compressed columns: \p sweep(dir, product) computes
/// chunk_width matrix-vector products (lane L's direction at
/// dir + L * columns, its product to product + L * rows).
template <class T, class Sweep>
void compressed_columns(const Sparsity &pattern, std::size_t rows,
                        std::size_t columns, T *values, Sweep sweep) {
  if (pattern.rows != rows || pattern.columns != columns)
    pattern_mismatch(pattern, rows, columns);
  std::vector<std::size_t> colour = colour_columns(pattern);
  std::size_t colours =
      colour.empty() ? 0 : *std::max_element(colour.begin(), colour.end()) + 1;
  std::vector<T> dir(chunk_width * columns), product(chunk_width * rows);
  for (std::size_t c0 = 0; c0 < colours; c0 += chunk_width) {
    auto lane = [&](std::size_t j) { return colour[j] - c0; };
    auto inChunk = [&](std::size_t j) {
      return colour[j] >= c0 && colour[j] < c0 + chunk_width;
    };
    std::fill(dir.begin(), dir.end(), T(0));
    for (std::size_t j = 0; j < columns; ++j)
      if (inChunk(j))
        dir[lane(j) * columns + j] = T(1);
    sweep(dir.data(), product.data());
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t k = pattern.row_start[i]; k < pattern.row_start[i + 1];
           ++k)
        if (std::size_t j = pattern.column[k]; inChunk(j))
          values[k] = product[lane(j) * rows + i];
  }
}

template <auto F, class... A>
void sparse_jacobian_into(typename Operation<F, A...>::T *values,
                          const Sparsity &pattern, A &...args) {
  Operation<F, A...> op(args...);
  compressed_columns(pattern, op.outputs, op.inputs, values,
                     [&](auto *dir, auto *tangent) {
                       op.template forward<chunk_width>(dir, tangent);
                     });
}

template <auto F, class... A>
void sparse_hessian_into(typename Operation<F, A...>::T *values,
                         const Sparsity &pattern, A &...args) {
  Operation<F, A...> op(args...);
  compressed_columns(pattern, op.inputs, op.inputs, values,
                     [&](auto *dir, auto *hv) {
                       op.template forwardOverReverse<chunk_width>(dir, hv);
                     });
}

/// The sizes of F's input and output vectors for these arguments.
template <auto F, class... A>
std::pair<std::size_t, std::size_t> sizes(A &...args) {
  Operation<F, A...> op(args...);
  return {op.inputs, op.outputs};
}

enum class Kind {
  Jacobian,
  Hessian,
  Jvp,
  Vjp,
  Hvp,
  SparseJacobian,
  SparseHessian
};

template <auto F, Kind K, class T, class... A>
void run_into(T *result, A &...args) {
  if constexpr (K == Kind::Jacobian)
    jacobian_into<F>(result, args...);
  else if constexpr (K == Kind::Hessian)
    hessian_into<F>(result, args...);
  else if constexpr (K == Kind::Jvp)
    jvp_into<F>(result, args...);
  else if constexpr (K == Kind::Vjp)
    vjp_into<F>(result, args...);
  else if constexpr (K == Kind::Hvp)
    hvp_into<F>(result, args...);
  else if constexpr (K == Kind::SparseJacobian)
    sparse_jacobian_into<F>(result, args...);
  else
    sparse_hessian_into<F>(result, args...);
}

/// The number of elements of K's result; \p first is F's first argument
/// (dense matrices), a direction (products) or the pattern (sparse).
template <auto F, Kind K, class First, class... A>
std::size_t result_size(First &first, A &...args) {
  if constexpr (K == Kind::Jacobian) {
    auto [n, m] = sizes<F>(first, args...);
    return n * m;
  } else if constexpr (K == Kind::Hessian) {
    std::size_t n = sizes<F>(first, args...).first;
    return n * n;
  } else if constexpr (K == Kind::Jvp) {
    return sizes<F>(args...).second;
  } else if constexpr (K == Kind::Vjp || K == Kind::Hvp) {
    return sizes<F>(args...).first;
  } else {
    return first.nonzeros();
  }
}

/// Operation K: into the buffer given by slope::into first, or into a new
/// std::vector it returns.
template <auto F, class Lead, class... A> constexpr bool fit_after_lead() {
  return arguments_fit<F, std::decay_t<A>...>();
}
/// Whether K's arguments \p A... (a leading direction or pattern first,
/// for the kinds that take one) suit F; says why not once.
template <auto F, Kind K, class... A> constexpr bool fit() {
  if constexpr (K == Kind::Jacobian || K == Kind::Hessian)
    return arguments_fit<F, std::decay_t<A>...>();
  else
    return fit_after_lead<F, A...>();
}

template <auto F, Kind K, class First, class... A>
auto operation(First &first, A &...args) {
  if constexpr (is_into_v<First>) {
    if constexpr (fit<F, K, A...>())
      run_into<F, K>(first.data, args...);
  } else if constexpr (fit<F, K, First, A...>()) {
    std::vector<Element<First, A...>> result(result_size<F, K>(first, args...));
    run_into<F, K>(result.data(), first, args...);
    return result;
  }
}

} // namespace detail::ops

// Each operation takes, first, slope::into(buffer) to write its result
// there (and return nothing); without it, it returns a std::vector.

/// The Jacobian d outputs / d inputs, row-major (outputs x inputs).
template <auto F, class... A> auto jacobian(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::Jacobian>(args...);
}

/// The Hessian of F's result, row-major (inputs x inputs).
template <auto F, class... A> auto hessian(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::Hessian>(args...);
}

/// J v: the outputs' tangents along input direction v (jvp<F>(v, ...)).
template <auto F, class... A> auto jvp(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::Jvp>(args...);
}

/// u^T J: the inputs' adjoints for output cotangent u (vjp<F>(u, ...)).
template <auto F, class... A> auto vjp(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::Vjp>(args...);
}

/// H v: the Hessian of F's result times input direction v
/// (hvp<F>(v, ...)).
template <auto F, class... A> auto hvp(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::Hvp>(args...);
}

/// The Jacobian's entries at a pattern's positions, in its order
/// (sparse_jacobian<F>(pattern, ...)): one forward-mode lane per colour of
/// columns that share no row. Entries outside the pattern must be zero.
template <auto F, class... A> auto sparse_jacobian(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::SparseJacobian>(args...);
}

/// The Hessian's entries at a pattern's positions, in its order
/// (sparse_hessian<F>(pattern, ...)): one Hessian-vector product lane per
/// colour of columns.
template <auto F, class... A> auto sparse_hessian(A &&...args) {
  return detail::ops::operation<F, detail::ops::Kind::SparseHessian>(args...);
}

} // namespace slope

#endif
