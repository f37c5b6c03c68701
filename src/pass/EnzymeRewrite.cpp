//===- EnzymeRewrite.cpp - Enzyme entry points become derivative calls ----===//
//
// Each entry point maps onto what the core already generates: the combined
// reverse derivative (__enzyme_autodiff), the forward derivative
// (__enzyme_fwddiff, with one tangent per lane under enzyme_width), and the
// augmented forward and reverse part of a split derivative
// (__enzyme_augmentfwd and __enzyme_reverse; the tape is the heap record
// the augmented forward leaves and the reverse part frees). Results are
// laid out as a C struct of them in order, whatever the declared type's ABI
// spelling (a scalar, {double, double}, <2 x float>, or sret memory).
//
//===----------------------------------------------------------------------===//
#include "CallSite.h"
#include "CustomRules.h"
#include "DiffError.h"
#include "Differentiator.h"
#include "EnzymeCall.h"
#include "SplitDerivative.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

using Results = SmallVector<Value *, 8>;

Error failAt(CallBase &Call, const Twine &Message) {
  return make_error<DiffError>(Message.str(), &Call);
}

std::string entryName(const CallBase &Call) {
  return Call.getCalledFunction()->getName().str();
}

/// The primals, then the first shadow of each dup pointer.
SmallVector<Value *, 16> reverseArguments(const EnzymeCall &EC) {
  SmallVector<Value *, 16> Args(EC.Primals.begin(), EC.Primals.end());
  for (auto [I, Activity] : enumerate(EC.Request.Args))
    if (Activity == ArgActivity::Dup)
      Args.push_back(EC.Shadows[I].front());
  return Args;
}

/// The adjoints of the active arguments in what a combined derivative (or
/// a reverse part) returned.
Results activeAdjoints(IRBuilderBase &B, const EnzymeCall &EC, Value *Result) {
  Results Adjoints;
  unsigned Field = EC.Request.Target->getReturnType()->isVoidTy() ? 0 : 1;
  for (ArgActivity Activity : EC.Request.Args)
    if (Activity == ArgActivity::Active)
      Adjoints.push_back(B.CreateExtractValue(Result, Field++));
  return Adjoints;
}

Expected<Results> emitAutoDiff(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<Function *> Derivative = getDerivative(EC.Request);
  if (!Derivative)
    return Derivative.takeError();
  SmallVector<Value *, 16> Args = reverseArguments(EC);
  Type *RetTy = EC.Request.Target->getReturnType();
  if (RetTy->isFloatingPointTy())
    Args.push_back(ConstantFP::get(RetTy, 1.0));
  Value *Result = callInPlaceOf(B, *EC.Call, **Derivative, Args);
  return activeAdjoints(B, EC, Result);
}

Expected<Results> emitFwdDiff(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<Function *> Derivative = getDerivative(EC.Request);
  if (!Derivative)
    return Derivative.takeError();
  SmallVector<Value *, 16> Args(EC.Primals.begin(), EC.Primals.end());
  for (unsigned Lane = 0; Lane < EC.Width; ++Lane)
    for (auto [I, Activity] : enumerate(EC.Request.Args))
      if (Activity == ArgActivity::Active || Activity == ArgActivity::Dup)
        Args.push_back(EC.Shadows[I][Lane]);
  Value *Result = callInPlaceOf(B, *EC.Call, **Derivative, Args);
  Results Tangents;
  if (EC.Request.Target->getReturnType()->isFloatingPointTy())
    for (unsigned Lane = 0; Lane < EC.Width; ++Lane)
      Tangents.push_back(B.CreateExtractValue(Result, 1 + Lane));
  return Tangents;
}

AllocaInst *entryAlloca(IRBuilderBase &B, Type *Ty, const Twine &Name) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> AtEntry(&F.getEntryBlock(), F.getEntryBlock().begin());
  return AtEntry.CreateAlloca(Ty, nullptr, Name);
}

Expected<Results> emitAugmentFwd(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<SplitDerivative> Parts = getSplitDerivative(EC.Request);
  if (!Parts)
    return Parts.takeError();
  SmallVector<Value *, 16> Args = reverseArguments(EC);
  AllocaInst *Slot = entryAlloca(B, B.getPtrTy(), "enzyme.tape.slot");
  Args.push_back(Slot);
  Value *Primal = callInPlaceOf(B, *EC.Call, *Parts->Augmented, Args);
  Results Values{B.CreateLoad(B.getPtrTy(), Slot, "enzyme.tape")};
  // {tape, primal result} when the declared type has room for both.
  if (!Primal->getType()->isVoidTy() && !EC.ResultType->isPointerTy())
    Values.push_back(Primal);
  return Values;
}

Expected<Results> emitReverse(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<SplitDerivative> Parts = getSplitDerivative(EC.Request);
  if (!Parts)
    return Parts.takeError();
  SmallVector<Value *, 16> Args = reverseArguments(EC);
  if (EC.Seed)
    Args.push_back(EC.Seed);
  Args.push_back(EC.Tape);
  Value *Result = callInPlaceOf(B, *EC.Call, *Parts->Reverse, Args);
  return activeAdjoints(B, EC, Result);
}

/// \p Values laid out as the C struct of them, read back as the declared
/// result type (or written to its sret memory). Returns the call's new
/// result, null when it has none.
Expected<Value *> packResults(IRBuilderBase &B, const EnzymeCall &EC,
                              ArrayRef<Value *> Values) {
  Type *Declared = EC.ResultType;
  if (Declared->isVoidTy())
    return nullptr;
  if (!EC.ResultMemory && Values.size() == 1) {
    Type *Got = Values[0]->getType();
    if (Got == Declared)
      return Values[0];
    if (Got->isFloatingPointTy() && Declared->isFloatingPointTy())
      return B.CreateFPCast(Values[0], Declared);
  }
  const DataLayout &DL = EC.Call->getModule()->getDataLayout();
  SmallVector<Type *, 8> Types;
  for (Value *V : Values)
    Types.push_back(V->getType());
  StructType *Layout = StructType::get(B.getContext(), Types);
  uint64_t Needed = DL.getStructLayout(Layout)->getSizeInBytes();
  uint64_t Room = DL.getTypeStoreSize(Declared);
  if (Needed > Room)
    return failAt(*EC.Call, "the result type declared for '" +
                                entryName(*EC.Call) + "' has " + Twine(Room) +
                                " bytes; its " + Twine(Values.size()) +
                                " results need " + Twine(Needed) +
                                " (declare it to return a struct of them)");
  Value *Memory = EC.ResultMemory;
  if (!Memory) {
    Memory = entryAlloca(B, Declared, "enzyme.result");
    B.CreateStore(Constant::getNullValue(Declared), Memory);
  }
  const StructLayout *Offsets = DL.getStructLayout(Layout);
  for (auto [I, V] : enumerate(Values))
    B.CreateStore(V, B.CreateConstInBoundsGEP1_64(
                         B.getInt8Ty(), Memory,
                         Offsets->getElementOffset(I).getFixedValue()));
  if (EC.ResultMemory)
    return nullptr;
  return B.CreateLoad(Declared, Memory, "enzyme.result");
}

Expected<Value *> serve(EnzymeCall &EC) {
  IRBuilder<> B(EC.Call);
  Expected<Results> Values = Results();
  switch (EC.Entry) {
  case EnzymeEntry::AutoDiff:
    Values = emitAutoDiff(B, EC);
    break;
  case EnzymeEntry::FwdDiff:
    Values = emitFwdDiff(B, EC);
    break;
  case EnzymeEntry::AugmentFwd:
    if (EC.ResultType->isVoidTy())
      return failAt(*EC.Call, "'" + entryName(*EC.Call) +
                                  "' must be declared to return the tape "
                                  "(void *)");
    Values = emitAugmentFwd(B, EC);
    break;
  case EnzymeEntry::Reverse:
    Values = emitReverse(B, EC);
    break;
  default:
    break;
  }
  if (!Values)
    return Values.takeError();
  return packResults(B, EC, *Values);
}

} // namespace

bool serveEnzymeCall(CallBase &Call, EnzymeEntry Entry,
                     const CustomRules &Rules) {
  if (Entry == EnzymeEntry::TypeHint)
    return true;
  DiffMode Mode = enzymeMode(Entry);
  Function *Target = enzymeTarget(Call);
  if (Entry == EnzymeEntry::Unsupported) {
    reportFailure(Call, Target, Mode,
                  failAt(Call, "unsupported Enzyme entry point '" +
                                   entryName(Call) + "'"));
    return false;
  }
  Expected<EnzymeCall> EC = parseEnzymeCall(Call, Entry);
  if (!EC) {
    reportFailure(Call, Target, Mode, EC.takeError());
    return false;
  }
  EC->Request.Rules = &Rules;
  addSourceElementTypes(EC->Request);
  Expected<Value *> Result = serve(*EC);
  if (!Result) {
    reportFailure(Call, Target, Mode, Result.takeError());
    return false;
  }
  if (*Result)
    Call.replaceAllUsesWith(*Result);
  return true;
}

} // namespace slope
