// Explicit 2-D heat equation on an n×n grid (fixed boundary), stepped in
// place; J = ½·Σ u_final². Gradient with respect to the initial field.
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>

namespace {

double heat2d(double *u, double *scratch, int n, int steps, double kappa) {
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j) {
        int c = i * n + j;
        scratch[c] = u[c] + kappa * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] -
                                     4 * u[c]);
      }
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j)
        u[i * n + j] = scratch[i * n + j];
  }
  double j = 0;
  for (int c = 0; c < n * n; ++c)
    j += u[c] * u[c];
  return 0.5 * j;
}

/// The adjoint of heat2d's steps: the transposed stencil, no tape (the
/// steps are linear in u).
void heat2dByHand(double *u, double *scratch, double *du, int n, int steps,
                  double kappa) {
  heat2d(u, scratch, n, steps, kappa);
  for (int c = 0; c < n * n; ++c)
    du[c] += u[c];
  double *bar = scratch;
  for (int s = 0; s < steps; ++s) {
    std::copy(du, du + n * n, bar);
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j)
        bar[i * n + j] -= du[i * n + j]; // interior: replaced, not kept
    for (int i = 1; i + 1 < n; ++i)
      for (int j = 1; j + 1 < n; ++j) {
        int c = i * n + j;
        double a = du[c];
        bar[c] += (1 - 4 * kappa) * a;
        bar[c - n] += kappa * a;
        bar[c + n] += kappa * a;
        bar[c - 1] += kappa * a;
        bar[c + 1] += kappa * a;
      }
    std::copy(bar, bar + n * n, du);
  }
}

class Heat2d : public bench::Kernel {
public:
  Heat2d(int N, int Steps)
      : N(N), Steps(Steps), U0(bench::wave(N * N, 1.0)), U(N * N),
        Scratch(N * N) {
    SlopeGrad.resize(N * N);
    HandGrad.resize(N * N);
  }
  std::string name() const override {
    return "heat2d " + std::to_string(N) + "^2 x" + std::to_string(Steps);
  }
  void primal() override {
    U = U0;
    Value = heat2d(U.data(), Scratch.data(), N, Steps, 0.2);
  }
  void slope() override {
    U = U0;
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    std::fill(Scratch.begin(), Scratch.end(), 0.0);
    std::fill(DScratch.begin(), DScratch.end(), 0.0);
    slope::grad<heat2d>(slope::dup(U.data(), SlopeGrad.data()),
                        slope::dup(Scratch.data(), DScratch.data()), N, Steps,
                        slope::constant(0.2));
  }
  void hand() override {
    U = U0;
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    heat2dByHand(U.data(), Scratch.data(), HandGrad.data(), N, Steps, 0.2);
  }

private:
  int N, Steps;
  std::vector<double> U0, U, Scratch, DScratch = std::vector<double>(N * N);
  double Value = 0;
};

bench::Registration Register("4 heat2d", [](bench::KernelList &Out,
                                            bool Quick) {
  Out.push_back(Quick ? std::make_unique<Heat2d>(16, 10)
                      : std::make_unique<Heat2d>(128, 100));
});

} // namespace
