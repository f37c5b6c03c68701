// The hydro proxy (Hydro.h) differentiated over many steps, its time loop
// taped and checkpointed (slope::checkpointed): checks both gradients
// against forward mode and central differences on a small mesh, and
// against each other, then reports per gradient: time / primal time, tape
// bytes per element per step (the heap's peak, and the fresh pages faulted),
// peak heap / the primal's peak heap, and the checkpointed gradient's time /
// the taped one's.
//
//   hydro_bench [--quick] [--mesh N] [--steps S]
//
// --quick: the checks and one short measurement (a correctness run).
// Exit status 1 when a check fails.
#include "../suite/MemoryTracker.h"
#include "Hydro.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

// Heap use is counted through malloc (linked with --wrap): operator new
// goes there too, so the Domain's vectors count as well as the tape.
void *operator new(std::size_t Size) {
  if (void *P = std::malloc(Size ? Size : 1))
    return P;
  throw std::bad_alloc();
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete(void *P, std::size_t) noexcept { std::free(P); }

namespace {

using hydro::Domain;
using Simulation = double (*)(Domain &, int);

volatile double Sink; // keeps the primal's result alive

template <Simulation F>
void gradientInto(const Domain &Initial, int Steps, Domain &Shadow) {
  Domain D = Initial;
  Shadow = hydro::zeroShadow(Initial);
  slope::grad<F>(slope::dup(D, Shadow), Steps);
}

/// A direction over every floating-point value of \p Like, each move in
/// proportion to the value it moves.
Domain direction(const Domain &Like, double Phase) {
  Domain Out = Like;
  double T = Phase;
  for (std::vector<double> *V : hydro::vectorFields(Out))
    for (double &X : *V)
      X = (std::fabs(X) + 1e-3) * std::cos(T += 0.77);
  for (double *X : hydro::scalarFields(Out))
    *X = std::fabs(*X) * std::cos(T += 0.77);
  return Out;
}

double dot(const std::vector<double> &A, const std::vector<double> &B) {
  double Sum = 0;
  for (size_t I = 0; I < A.size(); ++I)
    Sum += A[I] * B[I];
  return Sum;
}

bool near(double A, double B, double Tolerance) {
  return std::fabs(A - B) <= Tolerance * std::max(1.0, std::fabs(B));
}

/// F's reverse gradient along three directions against its forward mode
/// and central differences, on an 8x8 mesh over 6 steps.
template <Simulation F> bool check(const char *Name) {
  const int Steps = 6;
  Domain Initial = hydro::makeDomain(8, 3), Gradient;
  gradientInto<F>(Initial, Steps, Gradient);
  bool Ok = true;
  for (double Phase : {0.1, 0.5, 0.9}) {
    Domain Dir = direction(Initial, Phase);
    double Reverse = dot(hydro::flatten(Gradient), hydro::flatten(Dir));
    Domain At = Initial, Tangent = Dir;
    double Forward = slope::derivative<F>(slope::dup(At, Tangent), Steps);
    const double H = 1e-6;
    Domain Plus = hydro::displaced(Initial, Dir, H);
    Domain Minus = hydro::displaced(Initial, Dir, -H);
    double Central = (F(Plus, Steps) - F(Minus, Steps)) / (2 * H);
    bool Agree = near(Reverse, Forward, 1e-9) && near(Reverse, Central, 1e-5);
    std::printf("check %s %.1f: reverse %.12g forward %.12g central %.12g %s\n",
                Name, Phase, Reverse, Forward, Central, Agree ? "ok" : "WRONG");
    Ok &= Agree;
  }
  return Ok;
}

/// The checkpointed gradient against the taped one, over enough steps for
/// snapshots to be re-run from (few snapshots, so several re-runs).
bool checkCheckpointsMatch() {
  const int Steps = 23;
  Domain Initial = hydro::makeDomain(6, 2), Taped, Checkpointed;
  gradientInto<hydro::simulate>(Initial, Steps, Taped);
  gradientInto<hydro::simulateCheckpointed>(Initial, Steps, Checkpointed);
  std::vector<double> A = hydro::flatten(Taped),
                      B = hydro::flatten(Checkpointed);
  double Worst = 0;
  for (size_t I = 0; I < A.size(); ++I)
    Worst = std::max(Worst,
                     std::fabs(A[I] - B[I]) / std::max(1.0, std::fabs(A[I])));
  bool Ok = Worst <= 1e-12;
  std::printf("check checkpointed = taped over %d steps: worst %.3g %s\n",
              Steps, Worst, Ok ? "ok" : "WRONG");
  return Ok;
}

/// Smallest time of \p Repeats runs of \p Run, each after \p Prepare.
template <class PrepareFn, class RunFn>
double fastest(int Repeats, PrepareFn Prepare, RunFn Run) {
  double Best = INFINITY;
  for (int R = 0; R < Repeats; ++R) {
    Prepare();
    auto Start = std::chrono::steady_clock::now();
    Run();
    std::chrono::duration<double> Took =
        std::chrono::steady_clock::now() - Start;
    Best = std::min(Best, Took.count());
  }
  return Best;
}

struct Footprint {
  double Peak;    // heap bytes at the peak (what malloc handed out)
  double Touched; // bytes of fresh pages written (minor page faults)
};

/// The memory \p Run uses beyond what was in use before it, on a thread of
/// its own (no tape buffer kept from an earlier gradient). A buffer that
/// grows by doubling counts in full at the peak, but only the pages written
/// fault: for a tape, the bytes it used. Memory freed and allocated again
/// faults again (a checkpoint's copies): that counts what the kernel
/// serves, not what is resident at once.
template <class RunFn> Footprint memoryOf(RunFn Run) {
  Footprint Used{};
  std::thread([&] {
    rusage Start, End;
    getrusage(RUSAGE_THREAD, &Start);
    size_t Before = bench::MemoryTracker::current();
    bench::MemoryTracker::resetPeak();
    Run();
    Used.Peak = double(bench::MemoryTracker::peak() - Before);
    getrusage(RUSAGE_THREAD, &End);
    Used.Touched =
        double(End.ru_minflt - Start.ru_minflt) * double(sysconf(_SC_PAGESIZE));
  }).join();
  return Used;
}

struct Measured {
  double Seconds;
  Footprint Memory;
};

template <Simulation F>
Measured measureGradient(const Domain &Initial, int Steps, int Repeats) {
  Domain D, Shadow;
  double Seconds = fastest(
      Repeats,
      [&] {
        D = Initial;
        Shadow = hydro::zeroShadow(Initial);
      },
      [&] { slope::grad<F>(slope::dup(D, Shadow), Steps); });
  D = Shadow = Domain();
  return {Seconds, memoryOf([&] { gradientInto<F>(Initial, Steps, Shadow); })};
}

/// One row per gradient (taped, checkpointed) of \p Steps steps on an
/// \p Mesh x \p Mesh mesh. Peaks count the Domain, its shadow and what
/// the gradient keeps; tape bytes are the taped gradient's beyond the
/// Domain and its shadow.
void measure(int Mesh, int Steps, int Repeats, bool Taped) {
  Domain Initial = hydro::makeDomain(Mesh, 11), D;
  double Primal = fastest(
      Repeats, [&] { D = Initial; }, [&] { Sink = hydro::simulate(D, Steps); });
  // A tangled mesh would time NaN arithmetic, not the gradient.
  if (!std::isfinite(Sink) || !std::all_of(D.area.begin(), D.area.end(),
                                           [](double A) { return A > 0; })) {
    std::printf("%dx%d x%d: the simulation went unstable (energy %g)\n", Mesh,
                Mesh, Steps, Sink);
    std::exit(1);
  }
  D = Domain();
  Footprint PrimalUse = memoryOf([&] {
    Domain Copy = Initial;
    hydro::simulate(Copy, Steps);
  });
  Footprint ShadowUse =
      memoryOf([&] { Domain S = hydro::zeroShadow(Initial); });
  double PerElementStep = double(Mesh) * Mesh * Steps;
  char Name[64];
  auto Row = [&](const char *Kind, Measured M, double TapedSeconds) {
    std::snprintf(Name, sizeof(Name), "%dx%d x%d %s", Mesh, Mesh, Steps, Kind);
    const Footprint &Use = M.Memory;
    double Tape = Use.Peak - PrimalUse.Peak - ShadowUse.Peak;
    double Touched = Use.Touched - PrimalUse.Touched - ShadowUse.Touched;
    char VsTaped[16] = "-";
    if (TapedSeconds > 0)
      std::snprintf(VsTaped, sizeof(VsTaped), "%.2f", M.Seconds / TapedSeconds);
    std::printf("%-30s %10.3e %10.3e %11.2f %16.0f %16.0f %11.1f %10.1f %10s\n",
                Name, Primal, M.Seconds, M.Seconds / Primal,
                Tape / PerElementStep, Touched / PerElementStep,
                Use.Peak / PrimalUse.Peak, Use.Peak / 1e6, VsTaped);
  };
  double TapedSeconds = 0;
  if (Taped) {
    Measured M = measureGradient<hydro::simulate>(Initial, Steps, Repeats);
    TapedSeconds = M.Seconds;
    Row("taped", M, 0);
  }
  Row("checkpointed",
      measureGradient<hydro::simulateCheckpointed>(Initial, Steps, Repeats),
      TapedSeconds);
}

} // namespace

int main(int argc, char **argv) {
  bool Quick = false;
  int Mesh = 128, Steps = 20;
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--quick"))
      Quick = true;
    else if (!std::strcmp(argv[I], "--mesh") && I + 1 < argc)
      Mesh = std::atoi(argv[++I]);
    else if (!std::strcmp(argv[I], "--steps") && I + 1 < argc)
      Steps = std::atoi(argv[++I]);
  }
  bool Ok = check<hydro::simulate>("taped") &&
            check<hydro::simulateCheckpointed>("checkpointed") &&
            checkCheckpointsMatch();
  if (!Ok)
    return 1;
  std::printf("%-30s %10s %10s %11s %16s %16s %11s %10s %10s\n", "hydro",
              "primal [s]", "grad [s]", "grad/primal", "tape [B/el/step]",
              "faulted [B/el/s]", "peak/primal", "peak [MB]", "vs taped");
  if (Quick) {
    measure(16, 4, 1, true);
  } else {
    measure(Mesh, Steps, 5, true);
    measure(48, 1000, 1, true);
  }
  return 0;
}
