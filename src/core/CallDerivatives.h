//===- CallDerivatives.h - Calls that stay calls ----------------*- C++ -*-===//
//
// Calls that preprocessing could not inline (recursion, mutual recursion)
// are differentiated through the callee's own derivative: in forward mode
// the call becomes a call of the callee's forward derivative; in reverse
// mode the reverse sweep calls the callee's combined gradient, which
// recomputes the callee -- right only when the callee has no effect on
// memory, which is checked.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_CALLDERIVATIVES_H
#define SLOPE_CORE_CALLDERIVATIVES_H

#include "Activity.h"
#include "DiffRequest.h"

#include "llvm/IR/InstrTypes.h"

namespace slope {

/// A call to a function with a body Slope can differentiate as a call.
bool isDifferentiableCall(const llvm::CallBase &Call);

/// The request for the callee of \p Call in \p Mode, with each argument's
/// activity as the caller's analysis sees it.
DiffRequest requestForCall(const llvm::CallBase &Call, DiffMode Mode,
                           const ActivityInfo &Activity,
                           const DiffRequest &Caller);

/// Scalar parameters and result, and no writes to memory other than its
/// own stack, here or in what it calls: recomputing it is harmless.
bool isRecomputable(const llvm::Function &F);

} // namespace slope

#endif
