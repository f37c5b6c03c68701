// Derivative rules for Eigen's matrix-matrix products.
//
//   #include <Eigen/Dense>
//   #include <slope/eigen.hpp>
//
// Without this header Slope differentiates Eigen's blocked product kernel
// instruction by instruction: correct, but the reverse sweep then undoes
// the packing and the register blocking element by element, and tapes what
// the packed panels held. With it, each product C += alpha * A * B that
// Eigen hands to its general kernel (general_matrix_matrix_product::run,
// dynamic sizes past about 20 rows + columns + depth) is differentiated as
// a whole:
//
//   forward:  dC += alpha * (dA * B + A * dB) + dalpha * A * B
//   reverse:  dA += alpha * dC * B^T,  dB += alpha * A^T * dC,
//             dalpha = <dC, A * B>
//
// so the derivative costs about two more products of the same size. The
// augmented forward keeps copies of A and B (Eigen's operands may be
// temporaries, or be overwritten before the reverse sweep), about
// (rows + cols) * depth scalars per product; the reverse sweep frees them.
//
// Rules cover double and float operands in either storage order with a
// column-major result (Eigen turns a row-major result into that form).
// Complex scalars, and products Eigen evaluates coefficient-wise (small or
// fixed sizes, matrix-vector products), are differentiated as before.
// Eigen's multi-threaded products (-fopenmp with Eigen::nbThreads() > 1)
// stop the program with a message: their threads would add into one
// shadow of B at once.
#ifndef SLOPE_EIGEN_HPP
#define SLOPE_EIGEN_HPP

#include <Eigen/Core>

#include <slope/detail/eigen_gemm.hpp>

namespace slope::eigen_rules {

/// Instantiates the rules of every storage order for \p Scalar (the
/// function itself is never emitted).
template <class Scalar> void instantiateRules() {
  (void)&GemmRules<Scalar, Eigen::ColMajor, Eigen::ColMajor>::rule;
  (void)&GemmRules<Scalar, Eigen::ColMajor, Eigen::RowMajor>::rule;
  (void)&GemmRules<Scalar, Eigen::RowMajor, Eigen::ColMajor>::rule;
  (void)&GemmRules<Scalar, Eigen::RowMajor, Eigen::RowMajor>::rule;
}
inline void instantiateAllRules() {
  instantiateRules<double>();
  instantiateRules<float>();
}

} // namespace slope::eigen_rules

#endif
