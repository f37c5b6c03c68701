#include "MemoryTracker.h"

#include <atomic>
#include <malloc.h>

namespace {
std::atomic<std::size_t> Current{0}, Peak{0};

void *counted(void *P) {
  if (P) {
    std::size_t Now = Current += malloc_usable_size(P);
    std::size_t Old = Peak.load();
    while (Now > Old && !Peak.compare_exchange_weak(Old, Now)) {
    }
  }
  return P;
}
void uncount(void *P) {
  if (P)
    Current -= malloc_usable_size(P);
}
} // namespace

extern "C" {
void *__real_malloc(std::size_t);
void *__real_calloc(std::size_t, std::size_t);
void *__real_realloc(void *, std::size_t);
void __real_free(void *);

void *__wrap_malloc(std::size_t Size) { return counted(__real_malloc(Size)); }
void *__wrap_calloc(std::size_t N, std::size_t Size) {
  return counted(__real_calloc(N, Size));
}
void *__wrap_realloc(void *P, std::size_t Size) {
  uncount(P);
  return counted(__real_realloc(P, Size));
}
void __wrap_free(void *P) {
  uncount(P);
  __real_free(P);
}
}

namespace bench {
std::size_t MemoryTracker::current() { return Current; }
std::size_t MemoryTracker::peak() { return Peak; }
void MemoryTracker::resetPeak() { Peak = Current.load(); }
} // namespace bench
