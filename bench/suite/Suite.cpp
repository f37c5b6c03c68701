// The benchmark suite: for every kernel, Slope's gradient is checked
// against the hand-written one, then primal, Slope gradient and
// hand-written gradient are timed with Google Benchmark in one run.
// Prints one row per kernel and `geomean grad/primal: X` last.
//
//   bench_suite [--quick] [--json FILE] [Google Benchmark flags]
//
// --quick: small sizes and short timings (a correctness run, < 1 min).
// Exit status 1 when a gradient disagrees with the hand-written one.
#include "Kernel.h"
#include "MemoryTracker.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <thread>

namespace bench {
namespace {

/// Collects the adjusted real time per iteration of every run.
class CollectingReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    for (const Run &R : Runs)
      Seconds[R.benchmark_name()] =
          R.GetAdjustedRealTime() /
          benchmark::GetTimeUnitMultiplier(R.time_unit);
  }
  std::map<std::string, double> Seconds;
};

/// Largest difference relative to the hand-written gradient's scale.
double mismatch(const std::vector<double> &Slope,
                const std::vector<double> &Hand) {
  if (Slope.size() != Hand.size())
    return INFINITY;
  double Scale = 1, Worst = 0;
  for (double H : Hand)
    Scale = std::max(Scale, std::fabs(H));
  for (size_t I = 0; I < Hand.size(); ++I)
    Worst = std::max(Worst, std::fabs(Slope[I] - Hand[I]) / Scale);
  return Worst;
}

struct Row {
  std::string Name;
  double Primal = 0, Grad = 0, Hand = 0;
  size_t TapeBytes = 0;
  double Mismatch = 0;
};

void writeJson(const std::string &Path, const std::vector<Row> &Rows) {
  std::ofstream Out(Path);
  Out << "{\"kernels\":[";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const Row &R = Rows[I];
    char Line[512];
    std::snprintf(Line, sizeof(Line),
                  "%s\n {\"name\":\"%s\",\"primal_s\":%.9g,\"grad_s\":%.9g,"
                  "\"hand_s\":%.9g,\"tape_bytes\":%zu}",
                  I ? "," : "", R.Name.c_str(), R.Primal, R.Grad, R.Hand,
                  R.TapeBytes);
    Out << Line;
  }
  Out << "\n]}\n";
}

int run(int argc, char **argv) {
  bool Quick = false;
  std::string Json;
  std::vector<char *> Args{argv[0]};
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--quick"))
      Quick = true;
    else if (!std::strcmp(argv[I], "--json") && I + 1 < argc)
      Json = argv[++I];
    else
      Args.push_back(argv[I]);
  }
  std::string MinTime =
      std::string("--benchmark_min_time=") + (Quick ? "0.005s" : "0.3s");
  Args.push_back(MinTime.data());
  int Count = static_cast<int>(Args.size());
  benchmark::Initialize(&Count, Args.data());

  KernelList Kernels;
  for (const KernelFactory &Factory : registeredKernels())
    Factory(Kernels, Quick);

  std::vector<Row> Rows;
  bool Failed = false;
  for (auto &K : Kernels) {
    Row R;
    R.Name = K->name();
    K->hand();
    // On a thread of its own: no tape buffer is kept from an earlier
    // gradient, so the whole tape counts (and goes when the thread ends).
    std::thread([&] {
      size_t Before = MemoryTracker::current();
      MemoryTracker::resetPeak();
      K->slope();
      R.TapeBytes = MemoryTracker::peak() - Before;
    }).join();
    R.Mismatch = mismatch(K->slopeGradient(), K->handGradient());
    if (!(R.Mismatch <= 1e-8)) {
      std::printf("MISMATCH %s: Slope's gradient differs from the "
                  "hand-written one by %.3g (relative)\n",
                  R.Name.c_str(), R.Mismatch);
      Failed = true;
    }
    Kernel *Raw = K.get();
    benchmark::RegisterBenchmark((R.Name + "/primal").c_str(),
                                 [Raw](benchmark::State &S) {
                                   for (auto _ : S)
                                     Raw->primal();
                                 });
    benchmark::RegisterBenchmark((R.Name + "/slope").c_str(),
                                 [Raw](benchmark::State &S) {
                                   for (auto _ : S)
                                     Raw->slope();
                                 });
    benchmark::RegisterBenchmark((R.Name + "/hand").c_str(),
                                 [Raw](benchmark::State &S) {
                                   for (auto _ : S)
                                     Raw->hand();
                                 });
    Rows.push_back(R);
  }
  CollectingReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  benchmark::Shutdown();

  std::printf("%-26s %11s %11s %11s %11s %11s %10s %12s\n", "kernel",
              "primal [s]", "grad [s]", "hand [s]", "grad/primal",
              "hand/primal", "slope/hand", "tape [bytes]");
  double LogGrad = 0, LogVsHand = 0;
  for (Row &R : Rows) {
    R.Primal = Reporter.Seconds[R.Name + "/primal"];
    R.Grad = Reporter.Seconds[R.Name + "/slope"];
    R.Hand = Reporter.Seconds[R.Name + "/hand"];
    std::printf("%-26s %11.3e %11.3e %11.3e %11.2f %11.2f %10.2f %12zu\n",
                R.Name.c_str(), R.Primal, R.Grad, R.Hand, R.Grad / R.Primal,
                R.Hand / R.Primal, R.Grad / R.Hand, R.TapeBytes);
    LogGrad += std::log(R.Grad / R.Primal);
    LogVsHand += std::log(R.Grad / R.Hand);
  }
  if (!Json.empty())
    writeJson(Json, Rows);
  double N = static_cast<double>(Rows.size());
  std::printf("geomean slope/hand: %.2f\n", std::exp(LogVsHand / N));
  std::printf("geomean grad/primal: %.2f\n", std::exp(LogGrad / N));
  return Failed ? 1 : 0;
}

} // namespace

} // namespace bench

int main(int argc, char **argv) { return bench::run(argc, argv); }
