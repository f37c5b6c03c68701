//===- CallDerivatives.cpp ------------------------------------------------===//
#include "CallDerivatives.h"
#include "Allocations.h"
#include "MemoryTypes.h"
#include "OpenMP.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

bool isDifferentiableCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
         !isParallelRuntimeHelper(*Callee) && !isSlopeHeapShadowCall(*Callee) &&
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
  Req.Width = Caller.Width;
  for (const Use &Arg : Call.args()) {
    Type *Ty = Arg->getType();
    if (Ty->isFloatingPointTy())
      Req.Args.push_back(Activity.isActive(Arg.get()) ? ArgActivity::Active
                                                      : ArgActivity::Constant);
    // A null pointer has the null shadow: the callee may store active
    // values through the same parameter when other calls pass memory.
    else if (Ty->isPointerTy() && (Activity.isShadowed(Arg.get()) ||
                                   isa<ConstantPointerNull>(Arg.get())))
      Req.Args.push_back(ArgActivity::Dup);
    else
      Req.Args.push_back(ArgActivity::Inactive);
    // What the caller knows of the memory it passes types the callee's
    // copies of it (std::stable_sort's recursive merge moves doubles with
    // memmove through parameters).
    Req.ArgElementTypes.push_back(
        Ty->isPointerTy() && Req.Args.back() == ArgActivity::Dup
            ? soleElementType({Arg.get()}, Caller.ArgElementTypes)
            : nullptr);
  }
  Req.ElementTypesFromCaller = true;
  return Req;
}

} // namespace slope
