//===- Differentiator.cpp -------------------------------------------------===//
#include "Differentiator.h"
#include "CloneInto.h"
#include "CustomRules.h"
#include "DeviceLowering.h"
#include "DiffError.h"
#include "DisjointParameters.h"
#include "Emitters.h"
#include "OpenMP.h"
#include "Preprocess.h"
#include "SplitDerivative.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace slope {

Expected<Function *> getDerivative(const DiffRequest &Req) {
  Function &Target = *Req.Target;
  std::string Name = Req.derivativeName();
  if (Function *Existing = Target.getParent()->getFunction(Name))
    return Existing;
  const CustomRule *Rule = Req.Rules ? Req.Rules->ruleFor(&Target) : nullptr;
  bool HasRule =
      Rule &&
      (Req.Mode == DiffMode::Forward
           ? Rule->servesForward() &&
                 (Rule->forwardServesLanes(Req.Width) || Target.isDeclaration())
           : Rule->servesReverse() && (Rule->reverseServesLanes(Req.Width) ||
                                       Target.isDeclaration()));
  if (Target.isDeclaration() && !HasRule)
    return make_error<DiffError>("cannot differentiate '" +
                                 sourceName(Target.getName()) +
                                 "': its definition is not available");
  if (Target.isVarArg())
    return make_error<DiffError>("cannot differentiate '" +
                                 sourceName(Target.getName()) +
                                 "': variadic functions are not supported");
  // Block addresses (computed goto) would still point into the original
  // function from every copy Slope makes of it.
  for (BasicBlock &BB : Target)
    if (BB.hasAddressTaken() || isa<IndirectBrInst>(BB.getTerminator()) ||
        isa<CallBrInst>(BB.getTerminator()))
      return make_error<DiffError>(
          "cannot differentiate '" + sourceName(Target.getName()) +
              "': computed goto and asm goto are not supported",
          BB.getTerminator());
  for (unsigned I = 0; I < Req.Args.size(); ++I)
    if (Req.Args[I] == ArgActivity::Dup &&
        !Target.getArg(I)->getType()->isPointerTy())
      return make_error<DiffError>(
          "cannot differentiate '" + sourceName(Target.getName()) +
          "': slope::dup must bind to a pointer parameter");

  TargetLibraryInfoImpl LibraryInfo(
      Triple(Target.getParent()->getTargetTriple()));
  TargetLibraryInfo TLI(LibraryInfo);
  if (Req.DisjointPointers && HasRule)
    return make_error<DiffError>("a custom derivative has no noalias form");
  Function *Primal =
      HasRule ? makeCallWrapper(Target) : prepareClone(Target, Req.Rules, TLI);
  if (Req.DisjointPointers) {
    if (std::string Outside = memoryOutsideParameters(*Primal, TLI);
        !Outside.empty()) {
      Primal->eraseFromParent();
      return make_error<DiffError>("it reaches memory other than through its "
                                   "parameters: " +
                                   Outside);
    }
    markPointerParametersNoAlias(*Primal);
  }
  beginDerivative(Name);
  Expected<Function *> Derivative = Req.Mode == DiffMode::Forward
                                        ? emitForward(Req, *Primal, TLI)
                                        : emitReverse(Req, *Primal, TLI);
  Primal->eraseFromParent();
  if (Derivative) {
    restoreParallelRegions(**Derivative);
    lowerForDevice(**Derivative);
  }
  // Recursive calls asked for parts of this derivative: cut them now.
  if (Error E = endDerivative(Name, Derivative ? *Derivative : nullptr)) {
    discardGenerated(**Derivative);
    return std::move(E);
  }
  return Derivative;
}

} // namespace slope
