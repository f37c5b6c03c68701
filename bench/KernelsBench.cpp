// Array kernels: gradient time / primal time at -O2, for the heat stencil
// (128 cells × 100 steps, in place) and the ADBench GMM objective.
// Run: build/bench/kernels_bench
#include "../tests/e2e/Kernels.h"
#include "RatioReporter.h"

#include <slope/slope.hpp>

#include <cmath>
#include <vector>

namespace {

constexpr int Cells = 128, Steps = 100;
constexpr int N = 100, D = 5, K = 8; // GMM: points, dimension, components
constexpr int Params = K + K * D + K * D * (D + 1) / 2;

std::vector<double> wave(int Count, double Scale) {
  std::vector<double> V(Count);
  for (int I = 0; I < Count; ++I)
    V[I] = Scale * std::cos(0.37 * I + 0.1);
  return V;
}

void HeatPrimal(benchmark::State &State) {
  std::vector<double> U0 = wave(Cells, 1.0), U(Cells);
  for (auto _ : State) {
    U = U0;
    benchmark::DoNotOptimize(kernels::heat(U.data(), Cells, Steps, 0.2));
  }
}

void HeatGradient(benchmark::State &State) {
  std::vector<double> U0 = wave(Cells, 1.0), U(Cells), DU(Cells);
  for (auto _ : State) {
    U = U0;
    std::fill(DU.begin(), DU.end(), 0.0);
    double DK = slope::grad<kernels::heat<double>>(
        slope::dup(U.data(), DU.data()), Cells, Steps, 0.2);
    benchmark::DoNotOptimize(DK);
    benchmark::DoNotOptimize(DU.data());
  }
}

void GmmPrimal(benchmark::State &State) {
  std::vector<double> P = wave(Params, 0.5), X = wave(N * D, 1.5);
  for (auto _ : State)
    benchmark::DoNotOptimize(kernels::gmm(P.data(), X.data(), N, D, K, 1.0, 0));
}

void GmmGradient(benchmark::State &State) {
  std::vector<double> P = wave(Params, 0.5), X = wave(N * D, 1.5), DP(Params);
  for (auto _ : State) {
    std::fill(DP.begin(), DP.end(), 0.0);
    slope::grad<kernels::gmm<double>>(slope::dup(P.data(), DP.data()),
                                      slope::constant(X.data()), N, D, K, 1.0,
                                      0);
    benchmark::DoNotOptimize(DP.data());
  }
}

BENCHMARK(HeatPrimal);
BENCHMARK(HeatGradient);
BENCHMARK(GmmPrimal);
BENCHMARK(GmmGradient);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  bench::RatioReporter Reporter({
      {"HeatGradient", "HeatPrimal", 8.0},
      {"GmmGradient", "GmmPrimal", 5.0},
  });
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  benchmark::Shutdown();
}
