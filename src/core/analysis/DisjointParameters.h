//===- DisjointParameters.h - Parameters known not to overlap ---*- C++ -*-===//
//
// In plain C a store through one pointer parameter may change what another
// points to, so the reverse sweep cannot read such memory again and tapes
// it. When the caller gives every pointer argument's extent
// (slope::dup(x, dx, n), slope::constant(p, n)), the pass also builds a
// derivative that treats the pointer parameters as noalias -- what
// `restrict` would say -- and calls it when a run-time test finds the
// extents apart. That is sound only for a function that reaches memory
// through its parameters, its own allocations and constant globals alone.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_DISJOINTPARAMETERS_H
#define SLOPE_CORE_DISJOINTPARAMETERS_H

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"

#include <string>

namespace slope {

/// What in \p F reaches memory other than through its pointer parameters,
/// its own allocations and constant globals; empty when nothing does.
std::string memoryOutsideParameters(llvm::Function &F,
                                    const llvm::TargetLibraryInfo &TLI);

/// Marks \p F's pointer parameters noalias.
void markPointerParametersNoAlias(llvm::Function &F);

} // namespace slope

#endif
