// Tape memory must grow linearly with the iterations: peak memory of the
// gradient of a 10⁶-iteration scalar recurrence vs. a 10⁵ one (goal ≈ 10×),
// each measured in a child process, above a 1-iteration baseline.
// Run: build/bench/tape_memory
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

double recurrence(double x, long n) {
  double y = x;
  for (long i = 0; i < n; ++i)
    y = std::sin(y) * 0.5 + x * 0.5;
  return y;
}

/// Peak resident memory, in KiB, of a child computing the gradient.
long peakKiB(long Iterations) {
  pid_t Child = fork();
  if (Child == 0) {
    volatile double G = slope::grad<recurrence>(0.3, Iterations);
    (void)G;
    std::_Exit(0);
  }
  int Status = 0;
  rusage Usage{};
  wait4(Child, &Status, 0, &Usage);
  return Usage.ru_maxrss;
}

} // namespace

int main() {
  long Base = peakKiB(1);
  long Small = peakKiB(100000) - Base;
  long Large = peakKiB(1000000) - Base;
  double Ratio = Small > 0 ? double(Large) / Small : 0;
  std::printf("peak memory above baseline: 1e5 iterations %ld KiB, 1e6 "
              "iterations %ld KiB\n",
              Small, Large);
  std::printf("ratio 1e6 / 1e5 = %.2f (goal: about 10, linear growth) %s\n",
              Ratio, Ratio > 5 && Ratio < 15 ? "ok" : "OUT OF RANGE");
  return 0;
}
