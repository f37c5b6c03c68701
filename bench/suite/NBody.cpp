// Gravitational potential energy of N bodies with softening:
// E = -Σ_{i<j} m_i·m_j / sqrt(|r_i - r_j|² + ε²); gradient with respect to
// the 3N positions.
#include "../../tests/e2e/Kernels.h"
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <cmath>

namespace {

constexpr double Softening2 = 1e-4;

double potential(const double *r, const double *m, int n) {
  return kernels::nbody(r, m, n, Softening2);
}

void potentialByHand(const double *r, const double *m, double *dr, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = r[3 * i] - r[3 * j], dy = r[3 * i + 1] - r[3 * j + 1],
             dz = r[3 * i + 2] - r[3 * j + 2];
      double s = dx * dx + dy * dy + dz * dz + Softening2;
      double f = m[i] * m[j] / (s * std::sqrt(s)); // d/dx of -mm/sqrt(s) = f·dx
      dr[3 * i] += f * dx;
      dr[3 * i + 1] += f * dy;
      dr[3 * i + 2] += f * dz;
      dr[3 * j] -= f * dx;
      dr[3 * j + 1] -= f * dy;
      dr[3 * j + 2] -= f * dz;
    }
}

class NBody : public bench::Kernel {
public:
  explicit NBody(int N)
      : N(N), R(bench::wave(3 * N, 2.0)), M(bench::wave(N, 0.5, 1.3)) {
    for (double &Mass : M)
      Mass += 1.0;
    SlopeGrad.resize(3 * N);
    HandGrad.resize(3 * N);
  }
  std::string name() const override { return "nbody N=" + std::to_string(N); }
  void primal() override { Value = potential(R.data(), M.data(), N); }
  void slope() override {
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    slope::grad<potential>(slope::dup(R.data(), SlopeGrad.data()),
                           slope::constant(M.data()), N);
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    potentialByHand(R.data(), M.data(), HandGrad.data(), N);
  }

private:
  int N;
  std::vector<double> R, M;
  double Value = 0;
};

bench::Registration Register("5 nbody", [](bench::KernelList &Out, bool Quick) {
  Out.push_back(std::make_unique<NBody>(Quick ? 64 : 1024));
});

} // namespace
