// The named operations of slope/operations.hpp (jvp, vjp, jacobian,
// hessian, hvp, and their sparse forms) on functions with loops, against
// analytic Jacobians and Hessians, central differences of gradients, and
// each other.
#include "Check.h"
#include "Kernels.h"

#include <slope/operations.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

namespace {

std::vector<double> rosenbrockHessian(const std::vector<double> &x) {
  int n = x.size();
  std::vector<double> H(n * n);
  for (int i = 0; i + 1 < n; ++i) {
    H[i * n + i] += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
    H[(i + 1) * n + i + 1] += 200;
    H[i * n + i + 1] += -400 * x[i];
    H[(i + 1) * n + i] += -400 * x[i];
  }
  return H;
}

// Mean logistic loss of N samples with d features (row-major X), labels in
// {0, 1}, plus (lambda / 2) |w|^2.
double logisticLoss(const double *w, const double *X, const double *y,
                    double lambda, int N, int d) {
  double loss = 0;
  for (int s = 0; s < N; ++s) {
    double z = 0;
    for (int k = 0; k < d; ++k)
      z += X[s * d + k] * w[k];
    // log(1 + e^z) - y z, stable for both signs
    loss += std::fmax(z, 0.0) + std::log1p(std::exp(-std::fabs(z))) - y[s] * z;
  }
  double reg = 0;
  for (int k = 0; k < d; ++k)
    reg += w[k] * w[k];
  return loss / N + 0.5 * lambda * reg;
}

// A two-layer network, tanh hidden layer: out[k] = Σ_j V[k][j]·tanh(Σ_i
// W[j][i]·x[i] + b[j]); parameters p = (W, b, V) as one array.
constexpr int In = 3, Hidden = 4, Outputs = 2;
constexpr int Params = Hidden * In + Hidden + Outputs * Hidden;
void network(const double *p, const double *x, double *out) {
  const double *W = p, *b = p + Hidden * In, *V = b + Hidden;
  double h[Hidden];
  for (int j = 0; j < Hidden; ++j) {
    double z = b[j];
    for (int i = 0; i < In; ++i)
      z += W[j * In + i] * x[i];
    h[j] = std::tanh(z);
  }
  for (int k = 0; k < Outputs; ++k) {
    out[k] = 0;
    for (int j = 0; j < Hidden; ++j)
      out[k] += V[k * Hidden + j] * h[j];
  }
}

// Squared error of the network on one sample: a scalar for Hessians.
double networkLoss(const double *p, const double *x, const double *target) {
  double out[Outputs];
  network(p, x, out);
  double e = 0;
  for (int k = 0; k < Outputs; ++k)
    e += (out[k] - target[k]) * (out[k] - target[k]);
  return 0.5 * e;
}

// The analytic Jacobian with respect to (y, k), n x (n + 1).
std::vector<double> reactionDiffusionJacobian(const std::vector<double> &y,
                                              double k, double r) {
  int n = y.size(), c = n + 1;
  std::vector<double> J(n * c);
  for (int i = 0; i < n; ++i) {
    J[i * c + i] = -2 * k + r * (1 - 2 * y[i]);
    if (i > 0)
      J[i * c + i - 1] = k;
    if (i + 1 < n)
      J[i * c + i + 1] = k;
    double left = i > 0 ? y[i - 1] : 0, right = i + 1 < n ? y[i + 1] : 0;
    J[i * c + n] = left - 2 * y[i] + right;
  }
  return J;
}

std::vector<double> points(int n, double scale, double shift) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = scale * std::sin(1.3 * i + 0.4) + shift;
  return x;
}

void expectMatrixNear(const std::vector<double> &actual,
                      const std::vector<double> &expected, double rel,
                      double abs) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t e = 0; e < actual.size(); ++e)
    EXPECT_TRUE(check::near(actual[e], expected[e], rel, abs)) << "entry " << e;
}

void expectSymmetric(const std::vector<double> &H, int n, double rel) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      EXPECT_TRUE(check::near(H[i * n + j], H[j * n + i], rel, 1e-12))
          << "(" << i << ", " << j << ")";
}

/// The gradient of scalar F (first argument an array of n) by grad.
template <auto F, class... Rest>
std::vector<double> gradientAt(std::vector<double> x, Rest... rest) {
  std::vector<double> g(x.size());
  slope::grad<F>(slope::dup(static_cast<const double *>(x.data()), g.data()),
                 rest...);
  return g;
}

/// H v by central differences of gradients.
template <auto F, class... Rest>
std::vector<double> hvpByDifferences(const std::vector<double> &x,
                                     const std::vector<double> &v,
                                     Rest... rest) {
  const double h = 1e-6;
  std::vector<double> up(x), down(x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    up[i] += h * v[i];
    down[i] -= h * v[i];
  }
  auto gu = gradientAt<F>(up, rest...), gd = gradientAt<F>(down, rest...);
  std::vector<double> hv(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    hv[i] = (gu[i] - gd[i]) / (2 * h);
  return hv;
}

TEST(Operations, RosenbrockHessianIsAnalytic) {
  for (int n : {2, 7, 20}) {
    std::vector<double> x = points(n, 1.1, 0.2);
    std::vector<double> H = slope::hessian<kernels::rosenbrock<double>>(
        slope::wrt(static_cast<const double *>(x.data()), n), n);
    expectMatrixNear(H, rosenbrockHessian(x), 1e-12, 1e-12);
    expectSymmetric(H, n, 1e-14);
  }
}

TEST(Operations, HvpMatchesDifferencesOfGradients) {
  const int n = 11;
  std::vector<double> x = points(n, 0.9, 0.3), v = points(n, 1.0, -0.1);
  auto Hv = slope::hvp<kernels::rosenbrock<double>>(
      v, slope::wrt(static_cast<const double *>(x.data()), n), n);
  expectMatrixNear(Hv, hvpByDifferences<kernels::rosenbrock<double>>(x, v, n),
                   1e-6, 1e-6);
  // and H v by the dense Hessian
  auto H = slope::hessian<kernels::rosenbrock<double>>(
      slope::wrt(static_cast<const double *>(x.data()), n), n);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j)
      row += H[i * n + j] * v[j];
    EXPECT_TRUE(check::near(Hv[i], row, 1e-12, 1e-12)) << i;
  }
}

TEST(Operations, LogisticRegressionHessianIsAnalytic) {
  const int N = 13, d = 5;
  const double lambda = 0.1;
  std::vector<double> X = points(N * d, 1.0, 0.0), y(N), w = points(d, 0.5, 0);
  for (int s = 0; s < N; ++s)
    y[s] = s % 3 == 0 ? 1 : 0;
  auto H = slope::hessian<logisticLoss>(
      slope::wrt(static_cast<const double *>(w.data()), d),
      static_cast<const double *>(X.data()),
      static_cast<const double *>(y.data()), lambda, N, d);
  // X^T diag(p (1 - p)) X / N + lambda I
  std::vector<double> expected(d * d);
  for (int s = 0; s < N; ++s) {
    double z = 0;
    for (int k = 0; k < d; ++k)
      z += X[s * d + k] * w[k];
    double p = 1 / (1 + std::exp(-z)), weight = p * (1 - p) / N;
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b)
        expected[a * d + b] += weight * X[s * d + a] * X[s * d + b];
  }
  for (int a = 0; a < d; ++a)
    expected[a * d + a] += lambda;
  expectMatrixNear(H, expected, 1e-10, 1e-14);
  expectSymmetric(H, d, 1e-12);
}

TEST(Operations, NetworkJacobianAndHessian) {
  std::vector<double> p = points(Params, 0.7, 0.05), x = {0.3, -1.2, 0.8};
  std::vector<double> target = {0.4, -0.2};
  double out[Outputs];
  // Outputs (2) < parameters (24): by rows in reverse mode.
  auto J = slope::jacobian<network>(
      slope::wrt(static_cast<const double *>(p.data()), Params),
      static_cast<const double *>(x.data()), slope::out(out, Outputs));
  ASSERT_EQ(J.size(), std::size_t(Outputs * Params));
  for (int j = 0; j < Params; ++j) {
    const double h = 1e-6;
    std::vector<double> up(p), down(p);
    up[j] += h;
    down[j] -= h;
    double ou[Outputs], od[Outputs];
    network(up.data(), x.data(), ou);
    network(down.data(), x.data(), od);
    for (int k = 0; k < Outputs; ++k)
      EXPECT_TRUE(
          check::near(J[k * Params + j], (ou[k] - od[k]) / (2 * h), 1e-6, 1e-9))
          << k << ", " << j;
  }
  // The Hessian's columns against differences of gradients.
  auto H = slope::hessian<networkLoss>(
      slope::wrt(static_cast<const double *>(p.data()), Params),
      static_cast<const double *>(x.data()),
      static_cast<const double *>(target.data()));
  expectSymmetric(H, Params, 1e-10);
  for (int j : {0, 5, 13, 16, 23}) {
    std::vector<double> e(Params);
    e[j] = 1;
    auto column = hvpByDifferences<networkLoss>(
        p, e, slope::constant(static_cast<const double *>(x.data())),
        slope::constant(static_cast<const double *>(target.data())));
    for (int i = 0; i < Params; ++i)
      EXPECT_TRUE(check::near(H[i * Params + j], column[i], 1e-5, 1e-7))
          << i << ", " << j;
  }
}

TEST(Operations, OdeJacobianByColumnsAndByRows) {
  const int n = 9;
  const double k = 0.7, r = 1.3;
  std::vector<double> y = points(n, 0.4, 0.5), dydt(n);
  auto expected = reactionDiffusionJacobian(y, k, r);
  // n outputs, n + 1 inputs: by rows (reverse mode).
  auto byRows = slope::jacobian<kernels::reactionDiffusion<double>>(
      slope::wrt(static_cast<const double *>(y.data()), n), slope::wrt(k), r,
      slope::out(dydt.data(), n), n);
  expectMatrixNear(byRows, expected, 1e-13, 1e-14);
  // With respect to y alone (n x n): by columns (forward mode).
  auto byColumns = slope::jacobian<kernels::reactionDiffusion<double>>(
      slope::wrt(static_cast<const double *>(y.data()), n), k, r,
      slope::out(dydt.data(), n), n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      EXPECT_TRUE(check::near(byColumns[i * n + j], expected[i * (n + 1) + j],
                              1e-13, 1e-14));
  // The outputs hold what one plain call leaves.
  std::vector<double> plain(n);
  kernels::reactionDiffusion(y.data(), k, r, plain.data(), n);
  expectMatrixNear(dydt, plain, 0, 0);
}

TEST(Operations, JvpAndVjpAgreeWithTheJacobian) {
  const int n = 6;
  const double k = 0.3, r = 0.9;
  std::vector<double> y = points(n, 0.5, 0.2), dydt(n);
  std::vector<double> v = points(n + 1, 1.0, 0.1), u = points(n, 1.0, -0.2);
  auto J = reactionDiffusionJacobian(y, k, r);
  auto Jv = slope::jvp<kernels::reactionDiffusion<double>>(
      v, slope::wrt(static_cast<const double *>(y.data()), n), slope::wrt(k), r,
      slope::out(dydt.data(), n), n);
  auto uJ = slope::vjp<kernels::reactionDiffusion<double>>(
      u, slope::wrt(static_cast<const double *>(y.data()), n), slope::wrt(k), r,
      slope::out(dydt.data(), n), n);
  ASSERT_EQ(Jv.size(), std::size_t(n));
  ASSERT_EQ(uJ.size(), std::size_t(n + 1));
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j <= n; ++j)
      row += J[i * (n + 1) + j] * v[j];
    EXPECT_TRUE(check::near(Jv[i], row, 1e-13, 1e-14)) << i;
  }
  for (int j = 0; j <= n; ++j) {
    double column = 0;
    for (int i = 0; i < n; ++i)
      column += u[i] * J[i * (n + 1) + j];
    EXPECT_TRUE(check::near(uJ[j], column, 1e-13, 1e-14)) << j;
  }
}

// A result and an output array: the result is output 0.
double energyAndForces(const double *x, double *force, int n, int m) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += std::cos(x[i]) * x[(i + 1) % n];
  for (int k = 0; k < m; ++k) {
    force[k] = 0;
    for (int i = 0; i < n; ++i)
      force[k] += std::sin(x[i]) * x[(i + k + 1) % n];
  }
  return e;
}

TEST(Operations, ResultComesFirstAmongTheOutputs) {
  const int n = 4;
  std::vector<double> x = points(n, 1.0, 0.3);
  // 1 + 4 outputs >= 4 inputs: by columns; 1 + 1 < 4: by rows.
  for (int m : {4, 1}) {
    std::vector<double> force(m);
    auto J = slope::jacobian<energyAndForces>(
        slope::wrt(static_cast<const double *>(x.data()), n),
        slope::out(force.data(), m), n, m);
    ASSERT_EQ(J.size(), std::size_t((m + 1) * n));
    for (int j = 0; j < n; ++j) {
      const double h = 1e-6;
      std::vector<double> up(x), down(x), fu(m), fd(m);
      up[j] += h;
      down[j] -= h;
      double eu = energyAndForces(up.data(), fu.data(), n, m);
      double ed = energyAndForces(down.data(), fd.data(), n, m);
      EXPECT_TRUE(check::near(J[j], (eu - ed) / (2 * h), 1e-7, 1e-9)) << j;
      for (int i = 0; i < m; ++i)
        EXPECT_TRUE(check::near(J[(i + 1) * n + j], (fu[i] - fd[i]) / (2 * h),
                                1e-7, 1e-9))
            << i << ", " << j;
    }
  }
  // vjp seeds the result with u[0].
  const int m = 2;
  std::vector<double> force(m), u = {2.0, 0.0, 0.0};
  auto uJ = slope::vjp<energyAndForces>(
      u, slope::wrt(static_cast<const double *>(x.data()), n),
      slope::out(force.data(), m), n, m);
  std::vector<double> g(n), forceSeeds(m);
  slope::grad<energyAndForces>(
      slope::dup(static_cast<const double *>(x.data()), g.data()),
      slope::dup(force.data(), forceSeeds.data()), n, m);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(check::near(uJ[i], 2 * g[i], 1e-14, 1e-15));
}

// Scalars only: f(a, b) = a^3 b + exp(a b) / b.
double scalars(double a, double b) {
  return a * a * a * b + std::exp(a * b) / b;
}

TEST(Operations, ScalarInputs) {
  double a = 0.7, b = 1.3;
  auto H = slope::hessian<scalars>(slope::wrt(a), slope::wrt(b));
  double e = std::exp(a * b);
  std::vector<double> expected = {
      6 * a * b + b * e, 3 * a * a + e * a, 3 * a * a + e * a,
      e * (a * a / b - 2 * a / (b * b) + 2 / (b * b * b))};
  expectMatrixNear(H, expected, 1e-13, 1e-14);
  // With respect to a only, b held constant.
  auto Haa = slope::hessian<scalars>(slope::wrt(a), b);
  ASSERT_EQ(Haa.size(), 1u);
  EXPECT_TRUE(check::near(Haa[0], expected[0], 1e-13));
  auto J = slope::jacobian<scalars>(slope::wrt(a), slope::wrt(b));
  ASSERT_EQ(J.size(), 2u);
  EXPECT_TRUE(check::near(J[0], 3 * a * a * b + e, 1e-14));
  EXPECT_TRUE(check::near(J[1], a * a * a + e * (a * b - 1) / (b * b), 1e-14));
}

// Written in place: x is smoothed and then summed with weights.
double smoothInPlace(double *x, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 1; i + 1 < n; ++i)
      x[i] = 0.25 * x[i - 1] + 0.5 * std::sin(x[i]) + 0.25 * x[i + 1];
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += (i + 1) * x[i] * x[i];
  return total;
}

TEST(Operations, InPlaceInputsStartFromTheCallersValues) {
  const int n = 12; // two chunks of columns
  std::vector<double> x0 = points(n, 0.8, 0.1), x = x0;
  auto H = slope::hessian<smoothInPlace>(slope::wrt(x.data(), n), n, 3);
  std::vector<double> after = x0;
  smoothInPlace(after.data(), n, 3);
  expectMatrixNear(x, after, 0, 0); // as one plain call leaves it
  expectSymmetric(H, n, 1e-10);
  for (int j : {0, 5, 11}) {
    const double h = 1e-6;
    std::vector<double> e(n), up(x0), down(x0), gu(n), gd(n);
    up[j] += h;
    down[j] -= h;
    slope::grad<smoothInPlace>(slope::dup(up.data(), gu.data()), n, 3);
    slope::grad<smoothInPlace>(slope::dup(down.data(), gd.data()), n, 3);
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(
          check::near(H[i * n + j], (gu[i] - gd[i]) / (2 * h), 1e-6, 1e-8))
          << i << ", " << j;
  }
}

TEST(Operations, IntoWritesCallerBuffers) {
  const int n = 5;
  std::vector<double> x = points(n, 1.0, 0.0);
  std::array<double, n * n> H{};
  slope::hessian<kernels::rosenbrock<double>>(
      slope::into(H.data()),
      slope::wrt(static_cast<const double *>(x.data()), n), n);
  expectMatrixNear(std::vector<double>(H.begin(), H.end()),
                   rosenbrockHessian(x), 1e-12, 1e-12);
  std::array<double, n> v{1, 2, 3, 4, 5}, Hv{};
  slope::hvp<kernels::rosenbrock<double>>(
      slope::into(Hv.data()), v,
      slope::wrt(static_cast<const double *>(x.data()), n), n);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j)
      row += H[i * n + j] * v[j];
    EXPECT_TRUE(check::near(Hv[i], row, 1e-12, 1e-12));
  }
}

TEST(Operations, FloatData) {
  const int n = 6;
  std::vector<double> xd = points(n, 1.0, 0.2);
  std::vector<float> x(xd.begin(), xd.end());
  std::vector<float> H = slope::hessian<kernels::rosenbrock<float>>(
      slope::wrt(static_cast<const float *>(x.data()), n), n);
  std::vector<double> rounded(x.begin(), x.end());
  auto expected = rosenbrockHessian(rounded);
  for (int e = 0; e < n * n; ++e)
    EXPECT_TRUE(check::near(H[e], expected[e], 1e-5, 1e-4)) << e;
}

TEST(Operations, SparseJacobianOfABand) {
  const int n = 40;
  const double k = 0.6, r = 1.1;
  std::vector<double> y = points(n, 0.4, 0.5), dydt(n);
  slope::Sparsity band = slope::Sparsity::banded(n, 1, 1);
  EXPECT_EQ(band.nonzeros(), std::size_t(3 * n - 2));
  auto colour = slope::colour_columns(band);
  EXPECT_EQ(*std::max_element(colour.begin(), colour.end()), 2u);
  auto values = slope::sparse_jacobian<kernels::reactionDiffusion<double>>(
      band, slope::wrt(static_cast<const double *>(y.data()), n), k, r,
      slope::out(dydt.data(), n), n);
  auto dense = slope::jacobian<kernels::reactionDiffusion<double>>(
      slope::wrt(static_cast<const double *>(y.data()), n), k, r,
      slope::out(dydt.data(), n), n);
  ASSERT_EQ(values.size(), band.nonzeros());
  for (int i = 0; i < n; ++i)
    for (std::size_t e = band.row_start[i]; e < band.row_start[i + 1]; ++e)
      EXPECT_EQ(values[e], dense[i * n + band.column[e]])
          << i << ", " << band.column[e];
}

TEST(Operations, SparseHessianFromEntries) {
  const int n = 30;
  std::vector<double> x = points(n, 1.0, 0.1);
  std::vector<std::pair<std::size_t, std::size_t>> entries;
  for (int i = 0; i < n; ++i) { // the tridiagonal pattern, shuffled
    int j = (i * 7) % n;
    entries.push_back({std::size_t(j), std::size_t(j)});
    if (j + 1 < n) {
      entries.push_back({std::size_t(j + 1), std::size_t(j)});
      entries.push_back({std::size_t(j), std::size_t(j + 1)});
    }
  }
  auto pattern = slope::Sparsity::from_entries(n, n, entries);
  std::vector<double> values(pattern.nonzeros());
  slope::sparse_hessian<kernels::rosenbrock<double>>(
      slope::into(values.data()), pattern,
      slope::wrt(static_cast<const double *>(x.data()), n), n);
  auto H = rosenbrockHessian(x);
  for (int i = 0; i < n; ++i)
    for (std::size_t e = pattern.row_start[i]; e < pattern.row_start[i + 1];
         ++e)
      EXPECT_TRUE(
          check::near(values[e], H[i * n + pattern.column[e]], 1e-12, 1e-12));
}

} // namespace
