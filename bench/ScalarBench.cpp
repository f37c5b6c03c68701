// Scalar kernel: primal vs. Slope reverse and forward mode vs. a
// hand-written gradient. Run: build/bench/scalar_bench
#include "RatioReporter.h"

#include <slope/slope.hpp>

#include <cmath>

namespace {

// A smooth function with branches, as found in material models.
double energy(double x, double y, double k) {
  double r = std::sqrt(x * x + y * y + 1e-3);
  double e = k * (r - 1) * (r - 1) + std::exp(-r) * std::cos(3 * y);
  if (x > y)
    e += 0.5 * std::log1p(x * x);
  return e;
}

struct Gradient {
  double dx, dy;
};

Gradient energyGradientByHand(double x, double y, double k) {
  double r = std::sqrt(x * x + y * y + 1e-3);
  double er = std::exp(-r), c = std::cos(3 * y);
  double de_dr = 2 * k * (r - 1) - er * c;
  Gradient g{de_dr * x / r, de_dr * y / r + er * -3 * std::sin(3 * y)};
  if (x > y)
    g.dx += x / (1 + x * x);
  return g;
}

double inputs[2] = {0.7, 0.3};

void Primal(benchmark::State &State) {
  for (auto _ : State) {
    benchmark::DoNotOptimize(inputs);
    benchmark::DoNotOptimize(energy(inputs[0], inputs[1], 2.0));
  }
}

void ReverseSlope(benchmark::State &State) {
  for (auto _ : State) {
    benchmark::DoNotOptimize(inputs);
    auto [dx, dy] =
        slope::grad<energy>(inputs[0], inputs[1], slope::constant(2.0));
    benchmark::DoNotOptimize(dx);
    benchmark::DoNotOptimize(dy);
  }
}

void ForwardSlope(benchmark::State &State) {
  for (auto _ : State) {
    benchmark::DoNotOptimize(inputs);
    double dx =
        slope::derivative<energy>(slope::dual(inputs[0], 1.0), inputs[1], 2.0);
    double dy =
        slope::derivative<energy>(inputs[0], slope::dual(inputs[1], 1.0), 2.0);
    benchmark::DoNotOptimize(dx);
    benchmark::DoNotOptimize(dy);
  }
}

void ByHand(benchmark::State &State) {
  for (auto _ : State) {
    benchmark::DoNotOptimize(inputs);
    benchmark::DoNotOptimize(energyGradientByHand(inputs[0], inputs[1], 2.0));
  }
}

BENCHMARK(Primal);
BENCHMARK(ReverseSlope);
BENCHMARK(ForwardSlope);
BENCHMARK(ByHand);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  bench::RatioReporter Reporter({
      {"ReverseSlope", "Primal", 3.0},
      {"ForwardSlope", "Primal", 4.0},
      {"ReverseSlope", "ByHand", 1.25},
  });
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  benchmark::Shutdown();
}
