// Prints Google Benchmark's table, then ratios between benchmarks of the
// same run (gradient / primal, Slope / hand-written) against their goals.
#ifndef SLOPE_BENCH_RATIOREPORTER_H
#define SLOPE_BENCH_RATIOREPORTER_H

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace bench {

struct Ratio {
  std::string Numerator, Denominator;
  double Goal; // the ratio should not exceed this
};

class RatioReporter : public benchmark::ConsoleReporter {
public:
  explicit RatioReporter(std::vector<Ratio> Ratios)
      : Ratios(std::move(Ratios)) {}

  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    for (const Run &R : Runs)
      Times[R.benchmark_name()] = R.GetAdjustedCPUTime();
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%-44s %8s %8s\n", "ratio", "value", "goal");
    for (const Ratio &R : Ratios) {
      auto N = Times.find(R.Numerator), D = Times.find(R.Denominator);
      if (N == Times.end() || D == Times.end() || D->second <= 0)
        continue;
      double Value = N->second / D->second;
      std::printf("%-44s %8.2f %8.2f %s\n",
                  (R.Numerator + " / " + R.Denominator).c_str(), Value, R.Goal,
                  Value <= R.Goal ? "ok" : "ABOVE GOAL");
    }
  }

private:
  std::vector<Ratio> Ratios;
  std::map<std::string, double> Times;
};

} // namespace bench

#endif
