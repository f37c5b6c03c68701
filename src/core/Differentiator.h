//===- Differentiator.h - Entry point of the AD core ------------*- C++ -*-===//
#ifndef SLOPE_CORE_DIFFERENTIATOR_H
#define SLOPE_CORE_DIFFERENTIATOR_H

#include "DiffRequest.h"

#include "llvm/Support/Error.h"

namespace slope {

/// Returns the derivative function for \p Req, generating it on first use.
/// Derivatives are memoized by name, so one (function, mode, activity)
/// yields one function per module even across pass runs.
llvm::Expected<llvm::Function *> getDerivative(const DiffRequest &Req);

} // namespace slope

#endif
