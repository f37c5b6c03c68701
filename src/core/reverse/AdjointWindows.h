//===- AdjointWindows.h - Neighbours' adjoints in registers ---*- C++ -*-===//
#ifndef SLOPE_CORE_ADJOINTWINDOWS_H
#define SLOPE_CORE_ADJOINTWINDOWS_H

#include "llvm/IR/PassManager.h"

namespace slope {

/// The function attribute that marks a reverse-mode derivative Slope
/// generated: the functions AdjointWindowsPass looks into.
inline constexpr const char *ReverseSweepAttr = "slope-reverse-sweep";

/// In a loop that adds to the same array at neighbouring positions of a
/// moving index (`a[i-1] += x; a[i] += y; a[i+1] += z`, the reverse sweep
/// of every stencil), each element is loaded, added to and stored again in
/// consecutive iterations; the store of one iteration feeds the load of the
/// next, so the loop runs at the latency of a store-to-load round trip.
/// The pass keeps the elements in flight in registers instead: each is
/// loaded once where the loop first adds to it and stored once where it
/// adds last. The additions are the same, in the same order: results are
/// bit for bit those of the loop it replaces.
///
/// Legal when no other memory access in the loop may touch the elements
/// the window covers in any iteration: proved from distinct objects or
/// from the accessed ranges (ScalarEvolution); where only a run-time test
/// can tell, the loop is versioned on it. Runs on functions carrying
/// ReverseSweepAttr, before the vectorizer.
class AdjointWindowsPass : public llvm::PassInfoMixin<AdjointWindowsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

/// The transform itself, on any function; returns how many loops changed.
unsigned carryAdjointWindows(llvm::Function &F);

} // namespace slope

#endif
