//===- Activity.cpp -------------------------------------------------------===//
#include "Activity.h"
#include "DiffError.h"
#include "Rules.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

SmallVector<Use *, 4> differentiableOperands(Instruction &I) {
  SmallVector<Use *, 4> Uses;
  if (auto *Select = dyn_cast<SelectInst>(&I)) {
    Uses.push_back(&Select->getOperandUse(1));
    Uses.push_back(&Select->getOperandUse(2));
  } else if (auto *Call = dyn_cast<CallBase>(&I)) {
    for (Use &Arg : Call->args())
      Uses.push_back(&Arg);
  } else {
    for (Use &Op : I.operands())
      Uses.push_back(&Op);
  }
  return Uses;
}

namespace {

bool isScalarFP(const Value *V) { return V->getType()->isFloatingPointTy(); }

/// Derivatives of I with respect to the floating-point operand \p U are
/// known: either I is an operation with a rule or a linear data movement, or
/// its result cannot carry a derivative (comparisons, float-to-int).
Error checkUse(Instruction &I, const Use &U) {
  switch (I.getOpcode()) {
  case Instruction::FCmp:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::Ret:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::PHI:
  case Instruction::Freeze:
  case Instruction::Select:
    return Error::success();
  case Instruction::Store:
    return unsupported(I, "storing an active value to memory is not "
                          "supported yet");
  default:
    break;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (!Call->isArgOperand(&U))
      return unsupported(I, "an active value is called");
    if (isa<DbgInfoIntrinsic>(Call))
      return Error::success();
    if (findRule(I))
      return Error::success();
    if (auto *Intr = dyn_cast<IntrinsicInst>(Call))
      if (!isScalarFP(Intr) && Intr->getType()->isIntegerTy())
        return Error::success(); // lround, is.fpclass, ...: no derivative
    const Function *Callee = Call->getCalledFunction();
    if (Callee && !Callee->isDeclaration())
      return unsupported(I, "the call could not be inlined (recursion?), "
                            "and differentiating calls is not supported yet");
    return unsupported(I, "no derivative rule for this function and its "
                          "definition is not available");
  }
  if (findRule(I) && isScalarFP(&I))
    return Error::success();
  return unsupported(I, "this instruction does not propagate derivatives");
}

} // namespace

Expected<ActivityInfo> ActivityInfo::analyze(Function &F,
                                             ArrayRef<bool> ActiveArgs,
                                             bool ResultIsOutput) {
  // Forward: values that depend on an active argument.
  SmallPtrSet<const Value *, 32> Varied;
  SmallVector<Value *, 32> Work;
  for (Argument &A : F.args())
    if (A.getArgNo() < ActiveArgs.size() && ActiveArgs[A.getArgNo()] &&
        isScalarFP(&A) && Varied.insert(&A).second)
      Work.push_back(&A);
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      if (!User)
        continue;
      if (auto *Select = dyn_cast<SelectInst>(User))
        if (U.getOperandNo() == 0)
          continue;
      if (Error E = checkUse(*User, U))
        return std::move(E);
      if (isScalarFP(User) && Varied.insert(User).second)
        Work.push_back(User);
    }
  }

  // Backward: values the returned result depends on.
  SmallPtrSet<const Value *, 32> Useful;
  if (ResultIsOutput)
    for (Instruction &I : instructions(F))
      if (auto *Ret = dyn_cast<ReturnInst>(&I))
        if (Value *V = Ret->getReturnValue(); V && Useful.insert(V).second)
          Work.push_back(V);
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !isScalarFP(I))
      continue;
    for (Use *Op : differentiableOperands(*I))
      if (isScalarFP(Op->get()) && Useful.insert(Op->get()).second)
        Work.push_back(Op->get());
  }

  ActivityInfo Info;
  for (const Value *V : Varied)
    if (Useful.contains(V))
      Info.Active.insert(V);
  return Info;
}

} // namespace slope
