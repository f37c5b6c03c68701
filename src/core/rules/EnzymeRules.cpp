//===- EnzymeRules.cpp ----------------------------------------------------===//
#include "EnzymeRules.h"
#include "DiffError.h"
#include "Emitters.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

/// The fields of \p Aggregate laid out as the C struct of \p Fields, read
/// through memory (whatever ABI type spells the struct); an empty result
/// when it is too small.
SmallVector<Value *, 4> readFields(IRBuilderBase &B, Value *Aggregate,
                                   ArrayRef<Type *> Fields) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  StructType *Layout = StructType::get(B.getContext(), Fields);
  const StructLayout *Offsets = DL.getStructLayout(Layout);
  if (Offsets->getSizeInBytes() > DL.getTypeStoreSize(Aggregate->getType()))
    return {};
  AllocaInst *Memory = entryAlloca(B, Aggregate->getType(), "enzyme.fields");
  B.CreateStore(Aggregate, Memory);
  SmallVector<Value *, 4> Values;
  for (auto [I, Ty] : enumerate(Fields))
    Values.push_back(
        B.CreateLoad(Ty, B.CreateConstInBoundsGEP1_64(
                             B.getInt8Ty(), Memory,
                             Offsets->getElementOffset(I).getFixedValue())));
  return Values;
}

Error ruleMismatch(const Function &Rule, const Function &Target,
                   const Twine &Why) {
  return make_error<DiffError>(
      ("the custom derivative '" + sourceName(Rule.getName()) +
       "' registered for '" + sourceName(Target.getName()) + "' " + Why)
          .str());
}

/// Calls \p Rule with \p Args, which must fit its parameters.
Expected<CallInst *> callRule(IRBuilderBase &B, Function &Rule,
                              const Function &Target, ArrayRef<Value *> Args) {
  FunctionType *Type = Rule.getFunctionType();
  if (Type->getNumParams() != Args.size() || Type->isVarArg())
    return ruleMismatch(
        Rule, Target,
        "takes " + Twine(Type->getNumParams()) +
            (Type->getNumParams() == 1 ? " parameter" : " parameters") +
            "; Enzyme's convention gives it " + Twine(Args.size()));
  for (auto [I, A] : enumerate(Args))
    if (A->getType() != Type->getParamType(I))
      return ruleMismatch(Rule, Target,
                          "has the wrong type for parameter " + Twine(I + 1));
  CallInst *Call = B.CreateCall(&Rule, Args);
  Call->setCallingConv(Rule.getCallingConv());
  return Call;
}

/// Each argument of \p Target followed by its shadow where it is a pointer
/// (null where it has none).
SmallVector<Value *, 16> withPointerShadows(Function &Target,
                                            ArrayRef<Value *> Primals,
                                            ArrayRef<Value *> Shadows) {
  SmallVector<Value *, 16> Args;
  for (auto [Primal, Shadow] : zip(Primals, Shadows)) {
    Args.push_back(Primal);
    if (Primal->getType()->isPointerTy())
      Args.push_back(Shadow ? Shadow
                            : ConstantPointerNull::get(
                                  cast<PointerType>(Primal->getType())));
  }
  return Args;
}

/// A part's parameters: \p Primals (f's), \p Shadows (null but for dup
/// pointers); returns the index of the parameter after them.
unsigned partArguments(Function &Part, const DiffRequest &Req,
                       SmallVectorImpl<Value *> &Primals,
                       SmallVectorImpl<Value *> &Shadows) {
  unsigned N = Req.Target->arg_size(), Next = N;
  for (unsigned I = 0; I < N; ++I) {
    Primals.push_back(Part.getArg(I));
    Shadows.push_back(Req.Args[I] == ArgActivity::Dup ? Part.getArg(Next++)
                                                      : nullptr);
  }
  return Next;
}

/// Fills the augmented forward part: (f's parameters, dup shadows, record
/// slot) -> f's result.
Error fillAugmented(Function &Part, const CustomRule &Rule,
                    const DiffRequest &Req) {
  Function &Target = *Req.Target;
  IRBuilder<> B(BasicBlock::Create(Part.getContext(), "entry", &Part));
  SmallVector<Value *, 8> Primals, Shadows;
  Value *Slot = Part.getArg(partArguments(Part, Req, Primals, Shadows));
  Expected<CallInst *> Augmented =
      callRule(B, *Rule.EnzymeAugmented, Target,
               withPointerShadows(Target, Primals, Shadows));
  if (!Augmented)
    return Augmented.takeError();
  Type *ResultType = Target.getReturnType();
  Type *Given = (*Augmented)->getType();
  Value *Tape = ConstantPointerNull::get(B.getPtrTy());
  Value *Result = nullptr;
  if (Given->isPointerTy()) {
    Tape = *Augmented;
  } else if (Given == ResultType) {
    // The primal result alone: a rule that keeps no tape.
    Result = *Augmented;
  } else if (!Given->isVoidTy()) {
    SmallVector<Type *, 2> Fields{B.getPtrTy()};
    if (!ResultType->isVoidTy())
      Fields.push_back(ResultType);
    SmallVector<Value *, 4> Read = readFields(B, *Augmented, Fields);
    if (Read.empty())
      return ruleMismatch(
          *Rule.EnzymeAugmented, Target,
          "must return the tape, {tape, result}, or the result alone");
    Tape = Read[0];
    if (Read.size() > 1)
      Result = Read[1];
  }
  B.CreateStore(Tape, Slot);
  if (ResultType->isVoidTy()) {
    B.CreateRetVoid();
    return Error::success();
  }
  if (!Result) {
    CallInst *Primal = B.CreateCall(&Target, Primals);
    Primal->setCallingConv(Target.getCallingConv());
    Result = Primal;
  }
  B.CreateRet(Result);
  return Error::success();
}

/// Fills the reverse part: (f's parameters, dup shadows, [seed], record)
/// -> {result (poison), adjoints of the active arguments}.
Error fillReverse(Function &Part, const CustomRule &Rule,
                  const DiffRequest &Req) {
  Function &Target = *Req.Target;
  Function &Reverse = *Rule.EnzymeReverse;
  IRBuilder<> B(BasicBlock::Create(Part.getContext(), "entry", &Part));
  SmallVector<Value *, 8> Primals, Shadows;
  unsigned Next = partArguments(Part, Req, Primals, Shadows);
  SmallVector<Value *, 16> Args = withPointerShadows(Target, Primals, Shadows);
  Type *ResultType = Target.getReturnType();
  if (ResultType->isFloatingPointTy())
    Args.push_back(Part.getArg(Next++));
  // The tape, unless the rule takes none.
  if (Reverse.arg_size() == Args.size() + 1)
    Args.push_back(Part.getArg(Next));
  else if (Reverse.arg_size() != Args.size())
    return ruleMismatch(Reverse, Target,
                        "takes " + Twine(Reverse.arg_size()) +
                            " parameters; Enzyme's convention gives it " +
                            Twine(Args.size()) + ", then the tape");
  Expected<CallInst *> Call = callRule(B, Reverse, Target, Args);
  if (!Call)
    return Call.takeError();
  SmallVector<Type *, 4> ScalarTypes;
  for (Argument &A : Target.args())
    if (A.getType()->isFloatingPointTy())
      ScalarTypes.push_back(A.getType());
  SmallVector<Value *, 4> Adjoints;
  Type *Given = (*Call)->getType();
  if (ScalarTypes.size() == 1 && Given == ScalarTypes[0])
    Adjoints.push_back(*Call);
  else if (!ScalarTypes.empty() && !Given->isVoidTy())
    Adjoints = readFields(B, *Call, ScalarTypes);
  if (Adjoints.size() != ScalarTypes.size())
    return ruleMismatch(Reverse, Target,
                        "must return the adjoints of the " +
                            Twine(ScalarTypes.size()) +
                            " floating-point parameters");
  Type *PartResult = Part.getReturnType();
  if (PartResult->isVoidTy()) {
    B.CreateRetVoid();
    return Error::success();
  }
  Value *Result = PoisonValue::get(PartResult);
  unsigned Field = ResultType->isVoidTy() ? 0 : 1, Scalar = 0;
  for (auto [I, A] : enumerate(Target.args())) {
    if (!A.getType()->isFloatingPointTy())
      continue;
    Value *Adjoint = Adjoints[Scalar++];
    if (Req.Args[I] == ArgActivity::Active)
      Result = B.CreateInsertValue(Result, Adjoint, Field++);
  }
  B.CreateRet(Result);
  return Error::success();
}

} // namespace

AllocaInst *entryAlloca(IRBuilderBase &B, Type *Ty, const Twine &Name) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> AtEntry(&F.getEntryBlock(), F.getEntryBlock().begin());
  return AtEntry.CreateAlloca(Ty, nullptr, Name);
}

Expected<EnzymeForwardResult> emitEnzymeForward(IRBuilderBase &B,
                                                CallBase &Call,
                                                Function &Forward,
                                                ArrayRef<Value *> Companions) {
  Function &Target = *Call.getCalledFunction();
  SmallVector<Value *, 16> Args;
  for (auto [A, Companion] : zip(Call.args(), Companions)) {
    Type *Ty = A->getType();
    Args.push_back(A.get());
    if (Ty->isFloatingPointTy() || Ty->isPointerTy())
      Args.push_back(Companion ? Companion : Constant::getNullValue(Ty));
  }
  Expected<CallInst *> Result = callRule(B, Forward, Target, Args);
  if (!Result)
    return Result.takeError();
  // Rules may carry debug info; calls to them need a location.
  (*Result)->setDebugLoc(ruleCallLocation(Call));
  Type *ResultType = Call.getType();
  Type *Given = (*Result)->getType();
  if (ResultType->isVoidTy())
    return EnzymeForwardResult();
  if (Given == ResultType)
    return EnzymeForwardResult{nullptr, *Result};
  SmallVector<Value *, 4> Pair =
      Given->isVoidTy() ? SmallVector<Value *, 4>()
                        : readFields(B, *Result, {ResultType, ResultType});
  if (Pair.empty())
    return ruleMismatch(Forward, Target,
                        "must return the tangent, or {result, tangent}");
  return EnzymeForwardResult{Pair[0], Pair[1]};
}

Expected<SplitDerivative> enzymeSplit(const CustomRule &Rule,
                                      const DiffRequest &Req) {
  Module &M = *Req.Target->getParent();
  std::string AugmentedName = splitPartName(Req, "enzyme_augmented");
  std::string ReverseName = splitPartName(Req, "enzyme_reverse");
  if (Function *Augmented = M.getFunction(AugmentedName))
    return SplitDerivative{Augmented, M.getFunction(ReverseName)};
  auto [AugmentedType, ReverseType] = splitPartTypes(Req);
  SplitDerivative Parts;
  Parts.Augmented = Function::Create(
      AugmentedType, GlobalValue::InternalLinkage, AugmentedName, M);
  Parts.Reverse = Function::Create(ReverseType, GlobalValue::InternalLinkage,
                                   ReverseName, M);
  Error E = fillAugmented(*Parts.Augmented, Rule, Req);
  if (!E)
    E = fillReverse(*Parts.Reverse, Rule, Req);
  if (E) {
    Parts.Augmented->eraseFromParent();
    Parts.Reverse->eraseFromParent();
    return std::move(E);
  }
  return Parts;
}

} // namespace slope
