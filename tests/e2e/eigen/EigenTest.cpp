// Eigen 3.4 (Debian's libeigen3-dev) inside differentiated functions:
// fixed-size products, norms and reductions; dynamic matrices with
// products, an LLT least-squares solve and a partial-pivoting LU solve
// (their small temporaries are stack arrays of run-time size). Built with
// and without Eigen's explicit vectorization; both modes, against central
// differences; and a Hessian (forward over reverse) through an LLT solve.
#include "../Check.h"

#include <slope/operations.hpp>
#include <slope/slope.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <vector>

namespace {

double fixedSize(const double *a, const double *x) {
  Eigen::Map<const Eigen::Matrix3d> A(a);
  Eigen::Map<const Eigen::Vector3d> X(x);
  Eigen::Vector3d y = A * X + A.transpose() * X.cwiseProduct(X);
  return y.squaredNorm() + y.sum() + std::sin(y.norm()) +
         A.trace() * y.maxCoeff();
}

double leastSquares(const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n);
  Eigen::Map<const Eigen::VectorXd> B(b, n);
  Eigen::MatrixXd M = A.transpose() * A + Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd x = M.llt().solve(A.transpose() * B);
  return x.squaredNorm() + x.sum();
}

double luSolve(const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n);
  Eigen::Map<const Eigen::VectorXd> B(b, n);
  Eigen::VectorXd x = A.partialPivLu().solve(B);
  return x.dot(x) + x.prod();
}

/// Past 20 rows + columns + depth Eigen multiplies blockwise: operands are
/// packed into buffers and the right-hand side's doubles are broadcast by
/// integer shuffles (SSE2). Both factors active, sizes not a multiple of
/// the 4-column panels.
double blockedProducts(const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n), B(b, n, n);
  Eigen::MatrixXd C = A * B;
  Eigen::MatrixXd D = B * C.array().tanh().matrix();
  return 0.5 * D.squaredNorm();
}

/// Checks grad<F>(dup(a), dup(b), rest...) and forward mode along each
/// input against central differences of F.
template <auto F, class... Rest>
void checkTwoArrays(std::vector<double> a, std::vector<double> b,
                    Rest... rest) {
  std::vector<double> da(a.size(), 0.0), db(b.size(), 0.0);
  slope::grad<F>(slope::dup(a.data(), da.data()),
                 slope::dup(b.data(), db.data()), rest...);
  auto differenceAt = [&](std::vector<double> &v, std::size_t i) {
    double h = 1e-6 * std::max(1.0, std::fabs(v[i])), saved = v[i];
    v[i] = saved + h;
    double up = F(a.data(), b.data(), rest...);
    v[i] = saved - h;
    double down = F(a.data(), b.data(), rest...);
    v[i] = saved;
    return (up - down) / (2 * h);
  };
  for (std::size_t i = 0; i < a.size(); ++i) {
    double fd = differenceAt(a, i);
    EXPECT_TRUE(check::near(da[i], fd, 1e-6, 1e-8)) << "a[" << i << "]";
    std::vector<double> ta(a.size(), 0.0), tb(b.size(), 0.0);
    ta[i] = 1;
    double t = slope::derivative<F>(slope::dup(a.data(), ta.data()),
                                    slope::dup(b.data(), tb.data()), rest...);
    EXPECT_TRUE(check::near(t, fd, 1e-6, 1e-8)) << "forward a[" << i << "]";
  }
  for (std::size_t i = 0; i < b.size(); ++i)
    EXPECT_TRUE(check::near(db[i], differenceAt(b, i), 1e-6, 1e-8))
        << "b[" << i << "]";
}

std::vector<double> wellConditioned(int n) {
  std::vector<double> a = check::wave(n * n, 0.3);
  for (int i = 0; i < n; ++i)
    a[i * n + i] += 2.0;
  return a;
}

} // namespace

TEST(Eigen, FixedSizeProductsNormsReductions) {
  checkTwoArrays<fixedSize>(wellConditioned(3), check::wave(3, 0.7));
}

TEST(Eigen, DynamicLltLeastSquares) {
  checkTwoArrays<leastSquares>(wellConditioned(4), check::wave(4, 0.9), 4);
}

TEST(Eigen, BlockedProductsWithActiveFactors) {
  checkTwoArrays<blockedProducts>(check::wave(13 * 13, 0.3),
                                  check::wave(13 * 13, 0.4), 13);
}

TEST(Eigen, DynamicPartialPivLuSolve) {
  checkTwoArrays<luSolve>(wellConditioned(4), check::wave(4, 0.9), 4);
}

TEST(Eigen, HessianThroughAnLltSolve) {
  const int n = 4;
  std::vector<double> a = wellConditioned(n), b = check::wave(n, 0.9);
  std::vector<double> H = slope::hessian<leastSquares>(
      slope::constant(static_cast<const double *>(a.data())),
      slope::wrt(static_cast<const double *>(b.data()), n), n);
  ASSERT_EQ(H.size(), std::size_t(n * n));
  auto gradientAt = [&](std::vector<double> at) {
    std::vector<double> g(n, 0.0);
    slope::grad<leastSquares>(slope::constant(a.data()),
                              slope::dup(at.data(), g.data()), n);
    return g;
  };
  for (int j = 0; j < n; ++j) {
    const double h = 1e-6;
    std::vector<double> up = b, down = b;
    up[j] += h;
    down[j] -= h;
    std::vector<double> gu = gradientAt(up), gd = gradientAt(down);
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(
          check::near(H[i * n + j], (gu[i] - gd[i]) / (2 * h), 1e-6, 1e-8))
          << i << ", " << j;
      EXPECT_TRUE(check::near(H[i * n + j], H[j * n + i], 1e-10, 1e-12));
    }
  }
}
