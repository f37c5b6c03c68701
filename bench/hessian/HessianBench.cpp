// Second derivatives and sparse Jacobians at -O2 (slope/operations.hpp):
//  - hvp / gradient on kernels with loops: Rosenbrock (n = 100), the heat
//    stencil (in place, its reverse sweep tapes), the GMM objective and
//    the n-body potential; goal: at most 4;
//  - the dense Hessian of Rosenbrock (n = 100) by Hessian-vector product
//    columns (8 lanes per call) / gradient; goal: at most n x 4 = 400;
//  - a banded (tridiagonal) Jacobian of a reaction-diffusion right-hand
//    side, n = 1000: by 3 colours of compressed columns / dense by columns;
//    goal: at most 0.05 (the dense one takes n / 8 calls, the sparse one 1).
// Run: build/bench/hessian_bench
#include "../../tests/e2e/Kernels.h"
#include "../RatioReporter.h"

#include <slope/operations.hpp>

#include <cmath>
#include <vector>

namespace {

constexpr int RosenbrockSize = 100;
constexpr int Cells = 128, Steps = 100;
constexpr int Points = 100, Dimension = 5, Components = 8;
constexpr int GmmParams = Components + Components * Dimension +
                          Components * Dimension * (Dimension + 1) / 2;
constexpr int Bodies = 64;
constexpr int OdeSize = 1000;

std::vector<double> wave(int count, double scale, double shift = 0) {
  std::vector<double> v(count);
  for (int i = 0; i < count; ++i)
    v[i] = scale * std::cos(0.37 * i + 0.1) + shift;
  return v;
}

// Rosenbrock
void RosenbrockGradient(benchmark::State &state) {
  std::vector<double> x = wave(RosenbrockSize, 0.8, 0.5), g(RosenbrockSize);
  for (auto _ : state) {
    std::fill(g.begin(), g.end(), 0.0);
    slope::grad<kernels::rosenbrock<double>>(slope::dup(x.data(), g.data()),
                                             RosenbrockSize);
    benchmark::DoNotOptimize(g.data());
  }
}
void RosenbrockHvp(benchmark::State &state) {
  std::vector<double> x = wave(RosenbrockSize, 0.8, 0.5),
                      v = wave(RosenbrockSize, 1.0), hv(RosenbrockSize);
  for (auto _ : state) {
    slope::hvp<kernels::rosenbrock<double>>(
        slope::into(hv.data()), v, slope::wrt(x.data(), RosenbrockSize),
        RosenbrockSize);
    benchmark::DoNotOptimize(hv.data());
  }
}
void RosenbrockHessian(benchmark::State &state) {
  std::vector<double> x = wave(RosenbrockSize, 0.8, 0.5),
                      H(RosenbrockSize * RosenbrockSize);
  for (auto _ : state) {
    slope::hessian<kernels::rosenbrock<double>>(
        slope::into(H.data()), slope::wrt(x.data(), RosenbrockSize),
        RosenbrockSize);
    benchmark::DoNotOptimize(H.data());
  }
}

// The heat stencil, in place: the gradient tapes every overwritten cell.
void HeatGradient(benchmark::State &state) {
  std::vector<double> u0 = wave(Cells, 1.0), u(Cells), du(Cells);
  for (auto _ : state) {
    u = u0;
    std::fill(du.begin(), du.end(), 0.0);
    slope::grad<kernels::heat<double>>(slope::dup(u.data(), du.data()), Cells,
                                       Steps, 0.2);
    benchmark::DoNotOptimize(du.data());
  }
}
void HeatHvp(benchmark::State &state) {
  std::vector<double> u0 = wave(Cells, 1.0), u(Cells), v = wave(Cells, 0.5),
                      hv(Cells);
  for (auto _ : state) {
    u = u0;
    slope::hvp<kernels::heat<double>>(slope::into(hv.data()), v,
                                      slope::wrt(u.data(), Cells), Cells, Steps,
                                      0.2);
    benchmark::DoNotOptimize(hv.data());
  }
}

// The GMM objective.
void GmmGradient(benchmark::State &state) {
  std::vector<double> p = wave(GmmParams, 0.5),
                      x = wave(Points * Dimension, 1.5), dp(GmmParams);
  for (auto _ : state) {
    std::fill(dp.begin(), dp.end(), 0.0);
    slope::grad<kernels::gmm<double>>(slope::dup(p.data(), dp.data()),
                                      slope::constant(x.data()), Points,
                                      Dimension, Components, 1.0, 0);
    benchmark::DoNotOptimize(dp.data());
  }
}
void GmmHvp(benchmark::State &state) {
  std::vector<double> p = wave(GmmParams, 0.5),
                      x = wave(Points * Dimension, 1.5),
                      v = wave(GmmParams, 0.3), hv(GmmParams);
  const double *data = x.data();
  for (auto _ : state) {
    slope::hvp<kernels::gmm<double>>(
        slope::into(hv.data()), v,
        slope::wrt(static_cast<const double *>(p.data()), GmmParams), data,
        Points, Dimension, Components, 1.0, 0);
    benchmark::DoNotOptimize(hv.data());
  }
}

// The n-body potential.
void NBodyGradient(benchmark::State &state) {
  std::vector<double> r = wave(3 * Bodies, 2.0), m = wave(Bodies, 0.3, 1.0),
                      dr(3 * Bodies);
  for (auto _ : state) {
    std::fill(dr.begin(), dr.end(), 0.0);
    slope::grad<kernels::nbody<double>>(slope::dup(r.data(), dr.data()),
                                        slope::constant(m.data()), Bodies,
                                        0.01);
    benchmark::DoNotOptimize(dr.data());
  }
}
void NBodyHvp(benchmark::State &state) {
  std::vector<double> r = wave(3 * Bodies, 2.0), m = wave(Bodies, 0.3, 1.0),
                      v = wave(3 * Bodies, 0.7), hv(3 * Bodies);
  const double *masses = m.data();
  for (auto _ : state) {
    slope::hvp<kernels::nbody<double>>(
        slope::into(hv.data()), v,
        slope::wrt(static_cast<const double *>(r.data()), 3 * Bodies), masses,
        Bodies, 0.01);
    benchmark::DoNotOptimize(hv.data());
  }
}

// A tridiagonal Jacobian, dense and by colours.
void BandedJacobianDense(benchmark::State &state) {
  std::vector<double> y = wave(OdeSize, 0.4, 0.5), dydt(OdeSize),
                      J(std::size_t(OdeSize) * OdeSize);
  for (auto _ : state) {
    slope::jacobian<kernels::reactionDiffusion<double>>(
        slope::into(J.data()),
        slope::wrt(static_cast<const double *>(y.data()), OdeSize), 0.6, 1.1,
        slope::out(dydt.data(), OdeSize), OdeSize);
    benchmark::DoNotOptimize(J.data());
  }
}
void BandedJacobianSparse(benchmark::State &state) {
  std::vector<double> y = wave(OdeSize, 0.4, 0.5), dydt(OdeSize);
  slope::Sparsity band = slope::Sparsity::banded(OdeSize, 1, 1);
  std::vector<double> values(band.nonzeros());
  for (auto _ : state) {
    slope::sparse_jacobian<kernels::reactionDiffusion<double>>(
        slope::into(values.data()), band,
        slope::wrt(static_cast<const double *>(y.data()), OdeSize), 0.6, 1.1,
        slope::out(dydt.data(), OdeSize), OdeSize);
    benchmark::DoNotOptimize(values.data());
  }
}

BENCHMARK(RosenbrockGradient);
BENCHMARK(RosenbrockHvp);
BENCHMARK(RosenbrockHessian);
BENCHMARK(HeatGradient);
BENCHMARK(HeatHvp);
BENCHMARK(GmmGradient);
BENCHMARK(GmmHvp);
BENCHMARK(NBodyGradient);
BENCHMARK(NBodyHvp);
BENCHMARK(BandedJacobianDense);
BENCHMARK(BandedJacobianSparse);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  bench::RatioReporter Reporter({
      {"RosenbrockHvp", "RosenbrockGradient", 4.0},
      {"HeatHvp", "HeatGradient", 4.0},
      {"GmmHvp", "GmmGradient", 4.0},
      {"NBodyHvp", "NBodyGradient", 4.0},
      {"RosenbrockHessian", "RosenbrockGradient", 4.0 * RosenbrockSize},
      {"BandedJacobianSparse", "BandedJacobianDense", 0.05},
  });
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  benchmark::Shutdown();
  return 0;
}
