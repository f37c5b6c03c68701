//===- Target.h - What the code's target allows -----------------*- C++ -*-===//
//
// The one place that says how CPU, NVPTX and AMDGPU code differ for the
// emitters, instead of triple checks spread through them.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_TARGET_H
#define SLOPE_CORE_TARGET_H

#include "llvm/IR/Module.h"

namespace slope {

struct TargetFacts {
  /// GPU code: many threads run the derivative side by side.
  bool GPU = false;
  /// Other threads may write memory between the primal and the reverse
  /// sweep (GPU kernels): nothing may be loaded again, and shadows are
  /// updated atomically.
  bool OtherThreadsWrite = false;
  /// Memory shared by a thread block lives in this address space (GPU).
  bool HasSharedMemory = false;
  /// The C library can run code at thread exit (Linux with glibc): a
  /// thread may keep its tape buffer for its next gradient.
  bool RunsCodeAtThreadExit = false;
  /// The C library has realloc (device code has malloc and free only).
  bool HasRealloc = true;
  /// Generated code may print to stderr and abort (verify mode).
  bool ReportsAtRunTime = false;
};

TargetFacts targetFacts(const llvm::Module &M);

/// Whether other threads may write memory while \p F runs (GPU code, the
/// body of an OpenMP parallel region and what is derived from it).
bool otherThreadsWrite(const llvm::Function &F);

} // namespace slope

#endif
