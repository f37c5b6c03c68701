//===- SeedFactoring.h - Carried adjoints times a per-iteration factor ----===//
//
// The reverse of a scalar recurrence x <- f(x) carries one adjoint a from
// iteration to iteration: a' = a·f'(x). Propagated the usual way, a flows
// through every operation of f's reverse (a·p, then ·q, then + ...), so
// each iteration waits for the whole chain of the previous one and the loop
// runs at the latency of that chain. Everything an iteration computes from
// a alone is linear in it, so the same values are a times what they are for
// a = 1: the iteration computes them with 1 in place of a -- independent of
// the previous iteration, overlapped by the processor -- and multiplies by a
// once, where a value leaves the linear part (the next a, an accumulated
// adjoint, a store). The chain between iterations becomes one multiply.
// Only rounding changes (a·(p·q) instead of (a·p)·q).
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_REVERSE_SEEDFACTORING_H
#define SLOPE_CORE_REVERSE_SEEDFACTORING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AllocaInst;
class BasicBlock;
class Function;
class Instruction;
} // namespace llvm

namespace slope {

/// Promotes the adjoint slots \p AdjointSlots of \p F to SSA values and
/// factors the adjoints carried by loops of the reverse sweep (loops with
/// none of the primal sweep's \p PrimalBlocks) as described above, calling
/// \p Factored with an instruction of each factored loop, one with a
/// source location where the loop has one (for remarks).
void factorCarriedAdjoints(
    llvm::Function &F, llvm::ArrayRef<llvm::AllocaInst *> AdjointSlots,
    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &PrimalBlocks,
    llvm::function_ref<void(llvm::Instruction &)> Factored);

} // namespace slope

#endif
