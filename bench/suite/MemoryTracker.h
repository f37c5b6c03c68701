// Bytes allocated with malloc/calloc/realloc by code in the benchmark
// executable (which includes every derivative Slope generated there): the
// executable is linked with --wrap for them (bench/CMakeLists.txt).
#ifndef SLOPE_BENCH_MEMORYTRACKER_H
#define SLOPE_BENCH_MEMORYTRACKER_H

#include <cstddef>

namespace bench {

struct MemoryTracker {
  static std::size_t current();
  static std::size_t peak();
  /// Starts a new peak at the current level.
  static void resetPeak();
};

} // namespace bench

#endif
