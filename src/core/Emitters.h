//===- Emitters.h - Forward and reverse derivative generation ---*- C++ -*-===//
#ifndef SLOPE_CORE_EMITTERS_H
#define SLOPE_CORE_EMITTERS_H

#include "DiffRequest.h"

#include "llvm/Support/Error.h"

namespace llvm {
class TargetLibraryInfo;
}

namespace slope {

/// Generates the forward-mode derivative of \p Primal (a prepared clone of
/// Req.Target): parameters are the primal's followed, in argument order, by
/// the tangent of each active scalar and the shadow of each dup pointer; it
/// returns {result, tangent} when the result is floating-point and the
/// primal result otherwise.
llvm::Expected<llvm::Function *>
emitForward(const DiffRequest &Req, llvm::Function &Primal,
            const llvm::TargetLibraryInfo &TLI);

/// Generates the reverse-mode derivative of \p Primal as one function: the
/// primal sweep, then the reverse sweep. Parameters are the primal's, the
/// shadow of each dup pointer, then the adjoint seed of the result when it
/// is floating-point; it returns {result (if any), adjoint of each active
/// scalar argument...}.
llvm::Expected<llvm::Function *>
emitReverse(const DiffRequest &Req, llvm::Function &Primal,
            const llvm::TargetLibraryInfo &TLI);

/// The type of the function emitReverse generates for \p Req.
llvm::FunctionType *reverseDerivativeType(const DiffRequest &Req);

/// The struct type an emitter returns: the primal result (unless void)
/// followed by \p Extra.
llvm::Type *resultStructType(llvm::Type *PrimalResult,
                             llvm::ArrayRef<llvm::Type *> Extra);

} // namespace slope

#endif
