// ADBench's Gaussian mixture model objective (tests/e2e/Kernels.h:
// α, μ, lower-triangular precision factors with log-diagonal, stable
// logsumexp, Wishart prior with γ = 1, m = 0), n = 1000 points,
// d ∈ {2, 10, 20}, K ∈ {5, 25}; gradient with respect to all parameters.
#include "../../tests/e2e/Kernels.h"
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <cmath>

namespace {

double gmmObjective(const double *params, const double *x, int n, int d,
                    int K) {
  return kernels::gmm(params, x, n, d, K, 1.0, 0);
}

void gmmByHand(const double *params, const double *x, int n, int d, int K,
               double *grad) {
  const double *alpha = params, *mu = params + K, *icf = params + K + K * d;
  double *dalpha = grad, *dmu = grad + K, *dicf = grad + K + K * d;
  int icfSize = d * (d + 1) / 2;
  std::vector<double> centered(K * d), qx(K * d), terms(K);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < K; ++k) {
      const double *q = icf + k * icfSize;
      double *c = &centered[k * d], *y = &qx[k * d];
      double sumLogDiag = 0;
      for (int j = 0; j < d; ++j) {
        sumLogDiag += q[j];
        c[j] = x[i * d + j] - mu[k * d + j];
        y[j] = std::exp(q[j]) * c[j];
      }
      int entry = d;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row)
          y[row] += q[entry++] * c[col];
      double norm = 0;
      for (int j = 0; j < d; ++j)
        norm += y[j] * y[j];
      terms[k] = alpha[k] + sumLogDiag - 0.5 * norm;
    }
    double lse = kernels::logsumexp(terms.data(), K);
    for (int k = 0; k < K; ++k) {
      const double *q = icf + k * icfSize;
      double *dq = dicf + k * icfSize;
      const double *c = &centered[k * d], *y = &qx[k * d];
      double g = std::exp(terms[k] - lse);
      dalpha[k] += g;
      for (int j = 0; j < d; ++j) {
        double e = std::exp(q[j]);
        dq[j] += g * (1 - y[j] * e * c[j]);
        dmu[k * d + j] += g * e * y[j]; // -∂/∂c of -½‖Qc‖² is Qᵀy
      }
      int entry = d;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row, ++entry) {
          dq[entry] -= g * y[row] * c[col];
          dmu[k * d + col] += g * q[entry] * y[row];
        }
    }
  }
  double lseAlpha = kernels::logsumexp(alpha, K);
  for (int k = 0; k < K; ++k) {
    dalpha[k] -= n * std::exp(alpha[k] - lseAlpha);
    const double *q = icf + k * icfSize;
    double *dq = dicf + k * icfSize;
    for (int j = 0; j < d; ++j)
      dq[j] += std::exp(2 * q[j]);
    for (int j = d; j < icfSize; ++j)
      dq[j] += q[j];
  }
}

class Gmm : public bench::Kernel {
public:
  Gmm(int N, int D, int K)
      : N(N), D(D), K(K), Params(K + K * D + K * D * (D + 1) / 2),
        P(bench::wave(Params, 0.5)), X(bench::wave(N * D, 1.5, 0.7)) {
    SlopeGrad.resize(Params);
    HandGrad.resize(Params);
  }
  std::string name() const override {
    return "gmm d=" + std::to_string(D) + " K=" + std::to_string(K);
  }
  void primal() override { Value = gmmObjective(P.data(), X.data(), N, D, K); }
  void slope() override {
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    slope::grad<gmmObjective>(slope::dup(P.data(), SlopeGrad.data()),
                              slope::constant(X.data()), N, D, K);
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    gmmByHand(P.data(), X.data(), N, D, K, HandGrad.data());
  }

private:
  int N, D, K, Params;
  std::vector<double> P, X;
  double Value = 0;
};

bench::Registration Register("1 gmm", [](bench::KernelList &Out, bool Quick) {
  if (Quick) {
    Out.push_back(std::make_unique<Gmm>(20, 3, 4));
    return;
  }
  for (int D : {2, 10, 20})
    for (int K : {5, 25})
      Out.push_back(std::make_unique<Gmm>(1000, D, K));
});

} // namespace
