// slope/eigen.hpp's rules for general_matrix_matrix_product::run, Eigen's
// blocked kernel: C += alpha * A * B with a column-major C.
#ifndef SLOPE_DETAIL_EIGEN_GEMM_HPP
#define SLOPE_DETAIL_EIGEN_GEMM_HPP

#include <Eigen/Core>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace slope::eigen_rules {

using Eigen::Index;

template <class Scalar, int LhsOrder, int RhsOrder>
using Gemm =
    Eigen::internal::general_matrix_matrix_product<Index, Scalar, LhsOrder,
                                                   false, Scalar, RhsOrder,
                                                   false, Eigen::ColMajor, 1>;
template <class Scalar>
using Blocking = Eigen::internal::level3_blocking<Scalar, Scalar>;
using ParallelInfo = Eigen::internal::GemmParallelInfo<Index>;

/// Eigen's multi-threaded product (-fopenmp, more than one thread) hands
/// each thread a slice of the rows with the shared parallel info: the
/// threads' adjoints of B would add into one shadow at once. Stop rather
/// than race.
inline void requireOneThread(const ParallelInfo *info) {
  if (!info)
    return;
  std::fprintf(stderr, "slope: slope/eigen.hpp's product rules do not support "
                       "Eigen's multi-threaded products; call "
                       "Eigen::setNbThreads(1) around differentiated code\n");
  std::abort();
}

/// Column-major scratch for one product: Eigen's own blocking sizes.
template <class Scalar>
using BlockingSpace =
    Eigen::internal::gemm_blocking_space<Eigen::ColMajor, Scalar, Scalar,
                                         Eigen::Dynamic, Eigen::Dynamic,
                                         Eigen::Dynamic>;

/// C (rows x cols, column-major, stride ldc) += alpha * A * B through
/// Eigen's kernel: the rules reuse the instantiations they register.
template <class Scalar, int LhsOrder, int RhsOrder>
void multiplyAdd(Index rows, Index cols, Index depth, const Scalar *A,
                 Index lda, const Scalar *B, Index ldb, Scalar *C, Index ldc,
                 Scalar alpha) {
  if (rows == 0 || cols == 0 || depth == 0)
    return;
  BlockingSpace<Scalar> blocking(rows, cols, depth, 1, true);
  Gemm<Scalar, LhsOrder, RhsOrder>::run(rows, cols, depth, A, lda, B, ldb, C, 1,
                                        ldc, alpha, blocking, nullptr);
}

/// Where element (i, j) of an operand in \p Order with \p stride lies.
template <int Order> Index offsetOf(Index i, Index j, Index stride) {
  return Order == Eigen::RowMajor ? i * stride + j : i + j * stride;
}

/// Copies a rows x cols operand into \p copy, packed column-major.
template <int Order, class Scalar>
void packInto(Scalar *copy, const Scalar *from, Index rows, Index cols,
              Index stride) {
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i)
      copy[i + j * rows] = from[offsetOf<Order>(i, j, stride)];
}

/// What the reverse sweep of one product needs: A and B as they were,
/// packed column-major, in one block (fewer fresh pages to fault in for
/// large operands than two).
template <class Scalar> struct ProductRecord {
  std::unique_ptr<Scalar[]> storage;
  Scalar *lhs, *rhs;
};

/// to += alpha * step (rows x cols, packed column-major) for an operand
/// in \p Order; returns <step, of> for \p of packed like step.
template <int Order, class Scalar>
Scalar addScaled(Scalar *to, Index stride, const Scalar *step, const Scalar *of,
                 Index rows, Index cols, Scalar alpha) {
  Scalar dot(0);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) {
      Scalar value = step[i + j * rows];
      dot += value * of[i + j * rows];
      to[offsetOf<Order>(i, j, stride)] += alpha * value;
    }
  return dot;
}

template <class Scalar, int LhsOrder, int RhsOrder>
void gemmForward(Index rows, Index cols, Index depth, const Scalar *lhs,
                 Scalar *dlhs, Index lhsStride, const Scalar *rhs, Scalar *drhs,
                 Index rhsStride, Scalar *res, Scalar *dres, Index resIncr,
                 Index resStride, Scalar alpha, Scalar dalpha,
                 Blocking<Scalar> &blocking, Blocking<Scalar> *,
                 ParallelInfo *info, ParallelInfo *) {
  requireOneThread(info);
  auto add = multiplyAdd<Scalar, LhsOrder, RhsOrder>;
  if (dres && dlhs)
    add(rows, cols, depth, dlhs, lhsStride, rhs, rhsStride, dres, resStride,
        alpha);
  if (dres && drhs)
    add(rows, cols, depth, lhs, lhsStride, drhs, rhsStride, dres, resStride,
        alpha);
  if (dres && dalpha != Scalar(0))
    add(rows, cols, depth, lhs, lhsStride, rhs, rhsStride, dres, resStride,
        dalpha);
  Gemm<Scalar, LhsOrder, RhsOrder>::run(rows, cols, depth, lhs, lhsStride, rhs,
                                        rhsStride, res, resIncr, resStride,
                                        alpha, blocking, info);
}

template <class Scalar, int LhsOrder, int RhsOrder>
void *gemmAugmented(Index rows, Index cols, Index depth, const Scalar *lhs,
                    Scalar *, Index lhsStride, const Scalar *rhs, Scalar *,
                    Index rhsStride, Scalar *res, Scalar *dres, Index resIncr,
                    Index resStride, Scalar alpha, Blocking<Scalar> &blocking,
                    Blocking<Scalar> *, ParallelInfo *info, ParallelInfo *) {
  requireOneThread(info);
  ProductRecord<Scalar> *record = nullptr;
  // Without the result's shadow nothing flows back through the product.
  if (dres) {
    record = new ProductRecord<Scalar>;
    record->storage.reset(new Scalar[std::size_t(rows * depth + depth * cols)]);
    record->lhs = record->storage.get();
    record->rhs = record->lhs + rows * depth;
    packInto<LhsOrder>(record->lhs, lhs, rows, depth, lhsStride);
    packInto<RhsOrder>(record->rhs, rhs, depth, cols, rhsStride);
  }
  Gemm<Scalar, LhsOrder, RhsOrder>::run(rows, cols, depth, lhs, lhsStride, rhs,
                                        rhsStride, res, resIncr, resStride,
                                        alpha, blocking, info);
  return record;
}

/// Returns the adjoint of alpha; C's adjoint passes through unchanged
/// (run adds to C).
template <class Scalar, int LhsOrder, int RhsOrder>
Scalar gemmReverse(Index rows, Index cols, Index depth, const Scalar *,
                   Scalar *dlhs, Index lhsStride, const Scalar *, Scalar *drhs,
                   Index rhsStride, Scalar *, Scalar *dres, Index,
                   Index resStride, Scalar alpha, Blocking<Scalar> &,
                   Blocking<Scalar> *, ParallelInfo *, ParallelInfo *,
                   void *tape) {
  std::unique_ptr<ProductRecord<Scalar>> record(
      static_cast<ProductRecord<Scalar> *>(tape));
  if (!record)
    return Scalar(0);
  const Scalar *A = record->lhs, *B = record->rhs;
  constexpr int Col = Eigen::ColMajor, Row = Eigen::RowMajor;
  // <dC, A B> = <dC B^T, A> = <A^T dC, B>: from a product the shadows
  // need anyway. The packed copies are column-major; their transposes
  // are the same bytes read row-major. One scratch block serves both
  // products (one block: fewer fresh pages for large operands).
  std::size_t lhsSize = std::size_t(rows * depth),
              rhsSize = std::size_t(depth * cols);
  std::unique_ptr<Scalar[]> step(
      new Scalar[lhsSize > rhsSize ? lhsSize : rhsSize]);
  Scalar dalpha(0);
  if (dlhs || !drhs) {
    std::fill(step.get(), step.get() + lhsSize, Scalar(0));
    multiplyAdd<Scalar, Col, Row>(rows, depth, cols, dres, resStride, B, depth,
                                  step.get(), rows, Scalar(1));
    if (dlhs)
      dalpha = addScaled<LhsOrder>(dlhs, lhsStride, step.get(), A, rows, depth,
                                   alpha);
    else
      for (std::size_t k = 0; k < lhsSize; ++k)
        dalpha += step[k] * A[k];
  }
  if (drhs) {
    std::fill(step.get(), step.get() + rhsSize, Scalar(0));
    multiplyAdd<Scalar, Row, Col>(depth, cols, rows, A, rows, dres, resStride,
                                  step.get(), depth, Scalar(1));
    dalpha =
        addScaled<RhsOrder>(drhs, rhsStride, step.get(), B, depth, cols, alpha);
  }
  return dalpha;
}

/// {run, forward, augmented forward, reverse} in Enzyme's conventions.
template <class Scalar, int LhsOrder, int RhsOrder> struct GemmRules {
  __attribute__((
      used,
      section(".slope.rules"))) static inline const void *const rule[4] = {
      reinterpret_cast<const void *>(&Gemm<Scalar, LhsOrder, RhsOrder>::run),
      reinterpret_cast<const void *>(&gemmForward<Scalar, LhsOrder, RhsOrder>),
      reinterpret_cast<const void *>(
          &gemmAugmented<Scalar, LhsOrder, RhsOrder>),
      reinterpret_cast<const void *>(&gemmReverse<Scalar, LhsOrder, RhsOrder>)};
};

} // namespace slope::eigen_rules

#endif
