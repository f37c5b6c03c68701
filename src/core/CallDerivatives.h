//===- CallDerivatives.h - Calls that stay calls ----------------*- C++ -*-===//
//
// Calls that preprocessing could not inline (recursion, mutual recursion)
// are differentiated through the callee's own derivatives: in forward mode
// the call becomes a call of the callee's forward derivative; in reverse
// mode, of its augmented forward, with its reverse part in the reverse
// sweep (SplitDerivative.h).
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

} // namespace slope

#endif
