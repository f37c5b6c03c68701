//===- CallDerivatives.cpp ------------------------------------------------===//
#include "CallDerivatives.h"
#include "Rules.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

bool isDifferentiableCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
         !Callee->isInterposable() && !Call.isInlineAsm() &&
         !isa<InvokeInst>(Call);
}

DiffRequest requestForCall(const CallBase &Call, DiffMode Mode,
                           const ActivityInfo &Activity,
                           const DiffRequest &Caller) {
  DiffRequest Req;
  Req.Target = Call.getCalledFunction();
  Req.Mode = Mode;
  Req.Rules = Caller.Rules;
  for (const Use &Arg : Call.args()) {
    Type *Ty = Arg->getType();
    if (Ty->isFloatingPointTy())
      Req.Args.push_back(Activity.isActive(Arg.get()) ? ArgActivity::Active
                                                      : ArgActivity::Constant);
    else if (Ty->isPointerTy() && Activity.isShadowed(Arg.get()))
      Req.Args.push_back(ArgActivity::Dup);
    else
      Req.Args.push_back(ArgActivity::Inactive);
  }
  return Req;
}

static bool isRecomputable(const Function &F,
                           SmallPtrSetImpl<const Function *> &Visiting) {
  if (!Visiting.insert(&F).second)
    return true; // recursion: the rest of the cycle decides
  if (F.isDeclaration() || F.getReturnType()->isPointerTy())
    return false;
  for (const Argument &A : F.args())
    if (A.getType()->isPointerTy())
      return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *Store = dyn_cast<StoreInst>(&I)) {
        if (!isa<AllocaInst>(getUnderlyingObject(Store->getPointerOperand())))
          return false;
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call) {
        if (I.mayWriteToMemory() && !isa<AllocaInst>(I))
          return false;
        continue;
      }
      // Math functions with rules at most set errno again.
      if (isa<IntrinsicInst>(Call) || Call->onlyReadsMemory() || findRule(I))
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (!Callee || !isRecomputable(*Callee, Visiting))
        return false;
    }
  return true;
}

bool isRecomputable(const Function &F) {
  SmallPtrSet<const Function *, 8> Visiting;
  return isRecomputable(F, Visiting);
}

} // namespace slope
