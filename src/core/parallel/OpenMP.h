//===- OpenMP.h - Parallel regions of clang's OpenMP ------------*- C++ -*-===//
//
// Clang outlines the body of `#pragma omp parallel` into a function and
// calls `__kmpc_fork_call(loc, n, body, captured...)`, which runs the body
// on every thread of a team. Preprocessing turns the fork into a direct
// call of the body, marked as a parallel region, so that the engine sees
// an ordinary call: forward mode forks the body's tangent function, and
// reverse mode splits the body (SplitDerivative.h) and forks each part,
// every thread keeping its own record and tape for the reverse fork.
//
// Inside a region other threads write shared memory at any time: the body
// is differentiated as GPU kernels are (Target.h: nothing is loaded again,
// adjoints of shared memory add up atomically), barriers and critical
// sections are mirrored in the reverse sweep, and reductions are rewritten
// to their critical-section form, the one whose data flow the IR shows.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_OPENMP_H
#define SLOPE_CORE_OPENMP_H

#include "SplitDerivative.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace slope {

/// Rewrites the fork calls and reductions of \p F (see above). A fork whose
/// body Slope cannot see stays, and is an error if it passes derivatives.
void exposeParallelRegions(llvm::Function &F);

/// Whether \p Call is a parallel region exposed by exposeParallelRegions.
bool isParallelRegion(const llvm::CallBase &Call);

/// Whether \p F is a helper that parallel regions call (critical sections
/// with tickets): differentiation must see its calls, never its body.
bool isParallelRuntimeHelper(const llvm::Function &F);

/// Whether \p F (or the function it was derived from) is the body of a
/// parallel region: other threads run it at the same time.
bool runsInParallel(const llvm::Function &F);

/// Turns the parallel regions left in \p F (those without derivatives)
/// back into fork calls.
void restoreParallelRegions(llvm::Function &F);

/// Forks \p Body for region \p Region at \p B: \p Body takes the thread
/// numbers' addresses, then \p Args.
void emitFork(llvm::IRBuilderBase &B, const llvm::CallBase &Region,
              llvm::Function &Body, llvm::ArrayRef<llvm::Value *> Args);

/// Parts with the signatures of \p Parts that run them on a team: the
/// augmented one forks and leaves the team's records, the reverse one forks
/// again with as many threads and gives each its own record.
llvm::Expected<SplitDerivative> teamParts(const SplitDerivative &Parts,
                                          const llvm::CallBase &Region);

/// Whether \p Call synchronizes a team (barrier, critical section).
bool isSynchronization(const llvm::CallBase &Call);

/// Emits the mirror of synchronization \p Call in the reverse sweep at
/// \p B; \p PrimalOf gives its operands' values there.
void emitSynchronizationMirror(
    const llvm::CallBase &Call, llvm::IRBuilderBase &B,
    llvm::function_ref<llvm::Value *(llvm::Value *)> PrimalOf);

} // namespace slope

#endif
