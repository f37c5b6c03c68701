//===- DisjointCall.h - Calling the noalias derivative when it may -*- C++
//-*-===//
//
// A reverse-mode API call whose pointer arguments all come with extents
// (see core/DisjointParameters.h) calls the derivative built for noalias
// parameters when a run-time test finds the extents apart, and the plain
// one otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_DISJOINTCALL_H
#define SLOPE_PASS_DISJOINTCALL_H

#include "MarkerCall.h"

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// Whether a noalias derivative could serve \p Marker: optimized code and
/// an extent for every pointer the target uses (more than one, one of them
/// written). When some extents are given but one is missing, a remark says
/// which (see explainNoDisjoint).
bool mayCallDisjoint(const MarkerCall &Marker);

/// A remark (-Rpass-analysis=slope) at the call: why the extents it gives
/// do not serve.
void explainNoDisjoint(const MarkerCall &Marker, const llvm::Twine &Why);

/// Calls \p Disjoint with \p Args where the extents of the marker's pointer
/// arguments (and their shadows) do not overlap where one is written, and
/// \p Plain otherwise, at \p B; returns the result.
llvm::Value *callDisjointOrPlain(llvm::IRBuilderBase &B,
                                 const MarkerCall &Marker,
                                 llvm::Function &Disjoint,
                                 llvm::Function &Plain,
                                 llvm::ArrayRef<llvm::Value *> Args);

} // namespace slope

#endif
