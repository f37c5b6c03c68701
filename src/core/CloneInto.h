//===- CloneInto.h - The primal body inside a derivative --------*- C++ -*-===//
#ifndef SLOPE_CORE_CLONEINTO_H
#define SLOPE_CORE_CLONEINTO_H

#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace slope {

/// Creates an internal function \p Name of type \p Type whose first
/// parameters take the place of \p Primal's and whose body is a copy of
/// Primal's (returns included; the emitter rewrites them). \p Map maps
/// Primal's values to the copy's.
llvm::Function *cloneIntoNewSignature(llvm::Function &Primal,
                                      llvm::FunctionType *Type,
                                      llvm::StringRef Name,
                                      llvm::ValueToValueMapTy &Map);

/// Removes a derivative whose generation failed. Derivatives of recursive
/// callees may already call it: those calls become poison (the failure is
/// reported as an error, so nothing runs them).
void discardGenerated(llvm::Function &F);

/// Verifies a generated function; an invalid one is Slope's bug, reported
/// as an error rather than a crash later in the pipeline.
llvm::Error verifyGenerated(llvm::Function &F);

} // namespace slope

#endif
