//===- CallSite.h - Serving a request where it was made ---------*- C++ -*-===//
//
// What both front ends (slope.hpp's marker calls and Enzyme's entry points)
// do at the call that requested a derivative.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_CALLSITE_H
#define SLOPE_PASS_CALLSITE_H

#include "DiffRequest.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace slope {

/// Calls \p Callee where \p Request is. A request in a try block is an
/// invoke: the callee is invoked with the same handler (it throws whatever
/// the primal throws), and \p B continues on its normal path.
llvm::Value *callInPlaceOf(llvm::IRBuilderBase &B, llvm::CallBase &Request,
                           llvm::Function &Callee,
                           llvm::ArrayRef<llvm::Value *> Args);

/// Reports \p E as an error at \p Request (through the clang plugin when it
/// runs, so that it appears at the source call).
void reportFailure(llvm::CallBase &Request, const llvm::Function *Target,
                   DiffMode Mode, llvm::Error E);

/// Fills Req.ArgElementTypes from what the source says about the pointees
/// of its dup parameters.
void addSourceElementTypes(DiffRequest &Req);

} // namespace slope

#endif
