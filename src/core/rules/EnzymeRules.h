//===- EnzymeRules.h - Custom derivatives with Enzyme's conventions -*- C++
//-*-===//
//
// Code written for Enzyme registers custom derivatives in globals:
//   void *__enzyme_register_derivative_f[2] = {f, f_fwd};
//   void *__enzyme_register_gradient_f[3] = {f, f_aug, f_rev};
// with Enzyme's calling conventions: every argument is followed by its
// shadow when it has one (a pointer's shadow; in forward mode also a
// floating-point scalar's tangent).
//   f_fwd(args...) returns the tangent of f's result, or {result, tangent};
//   f_aug(args...) returns the tape (void *), or {tape, result}, or
//                  nothing;
//   f_rev(args..., [adjoint of the result], [tape]) returns the adjoints of
//                  f's floating-point scalar parameters, in order (one
//                  value, or a struct of them).
// Where f_aug does not give f's result, f itself computes it.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_ENZYMERULES_H
#define SLOPE_CORE_ENZYMERULES_H

#include "CustomRules.h"
#include "DiffRequest.h"
#include "SplitDerivative.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace slope {

/// A stack slot in the entry block of \p B's function.
llvm::AllocaInst *entryAlloca(llvm::IRBuilderBase &B, llvm::Type *Ty,
                              const llvm::Twine &Name);

/// What a forward rule call gave: the primal result (null when \p Call
/// itself is to stay and compute it) and the tangent (null for void).
struct EnzymeForwardResult {
  llvm::Value *Primal = nullptr;
  llvm::Value *Tangent = nullptr;
};

/// Calls \p Forward in place of \p Call. \p Companions holds per argument
/// its tangent (floating-point scalars) or shadow (pointers); others are
/// ignored.
llvm::Expected<EnzymeForwardResult>
emitEnzymeForward(llvm::IRBuilderBase &B, llvm::CallBase &Call,
                  llvm::Function &Forward,
                  llvm::ArrayRef<llvm::Value *> Companions);

/// The augmented forward and reverse part (SplitDerivative.h conventions)
/// of \p Req's target, made from its Enzyme gradient rule.
llvm::Expected<SplitDerivative> enzymeSplit(const CustomRule &Rule,
                                            const DiffRequest &Req);

} // namespace slope

#endif
