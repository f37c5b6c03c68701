//===- DynamicAllocas.h - Stack arrays of run-time size on the heap -*- C++
//-*-===//
//
// A variable-length array, alloca(), or a stack temporary inside a loop
// (Eigen's small dynamic temporaries, after inlining) lives on the stack
// only until the enclosing llvm.stackrestore, yet the reverse sweep runs
// after it. In the copy Slope differentiates, each such allocation becomes
// a heap allocation, freed when the same alloca runs again (its previous
// array is dead then) and at the function's returns: heap allocations
// already get shadows that outlive the primal sweep, and a free is a write
// the tape planner sees, so nothing is loaded again from memory that was
// given back.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_DYNAMICALLOCAS_H
#define SLOPE_CORE_DYNAMICALLOCAS_H

#include "llvm/IR/Function.h"

namespace slope {

/// Rewrites the dynamic allocas of \p F as described above; returns
/// whether it changed anything.
bool moveDynamicAllocasToHeap(llvm::Function &F);

} // namespace slope

#endif
