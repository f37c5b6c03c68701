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
#include "EnzymeRules.h"
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
  return Call.getCalledOperand()->getName().str();
}

/// The primals, then per lane each shadow (or tangent) the call passed.
SmallVector<Value *, 16> shadowedArguments(const EnzymeCall &EC) {
  return derivativeArguments(
      EC.Request, EC.Primals,
      [&](unsigned Lane, unsigned I) { return EC.Shadows[I][Lane]; });
}

/// The adjoints of the active arguments in what a combined derivative (or
/// a reverse part) returned, each argument's lanes together. The
/// derivative returns them lane by lane.
Results activeAdjoints(IRBuilderBase &B, const EnzymeCall &EC, Value *Result) {
  Results Adjoints;
  unsigned First = EC.Request.Target->getReturnType()->isVoidTy() ? 0 : 1;
  unsigned NumActive = count(EC.Request.Args, ArgActivity::Active);
  for (unsigned K = 0; K < NumActive; ++K)
    for (unsigned Lane = 0; Lane < EC.Width; ++Lane)
      Adjoints.push_back(
          B.CreateExtractValue(Result, First + Lane * NumActive + K));
  return Adjoints;
}

Expected<Results> emitAutoDiff(IRBuilderBase &B, const EnzymeCall &EC) {
  // __enzyme_autodiff returns the adjoints alone: the value is not wanted.
  DiffRequest Req = EC.Request;
  Req.ResultUnused = !Req.Target->getReturnType()->isVoidTy();
  Expected<Function *> Derivative = getDerivative(Req);
  if (!Derivative)
    return Derivative.takeError();
  SmallVector<Value *, 16> Args = shadowedArguments(EC);
  Type *RetTy = EC.Request.Target->getReturnType();
  if (RetTy->isFloatingPointTy())
    Args.append(EC.Width, ConstantFP::get(RetTy, 1.0));
  Value *Result = callInPlaceOf(B, *EC.Call, **Derivative, Args);
  return activeAdjoints(B, EC, Result);
}

Expected<Results> emitFwdDiff(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<Function *> Derivative = getDerivative(EC.Request);
  if (!Derivative)
    return Derivative.takeError();
  Value *Result =
      callInPlaceOf(B, *EC.Call, **Derivative, shadowedArguments(EC));
  Results Tangents;
  if (EC.Request.Target->getReturnType()->isFloatingPointTy())
    for (unsigned Lane = 0; Lane < EC.Width; ++Lane)
      Tangents.push_back(B.CreateExtractValue(Result, 1 + Lane));
  return Tangents;
}

Expected<Results> emitAugmentFwd(IRBuilderBase &B, const EnzymeCall &EC) {
  Expected<SplitDerivative> Parts = getSplitDerivative(EC.Request);
  if (!Parts)
    return Parts.takeError();
  SmallVector<Value *, 16> Args = shadowedArguments(EC);
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
  SmallVector<Value *, 16> Args = shadowedArguments(EC);
  if (EC.Seed)
    Args.push_back(EC.Seed);
  Args.push_back(EC.Tape);
  Value *Result = callInPlaceOf(B, *EC.Call, *Parts->Reverse, Args);
  return activeAdjoints(B, EC, Result);
}

struct Slot {
  uint64_t Offset;
  Type *Ty;
};

/// The scalar slots of \p Ty (fields of structs, elements of arrays and
/// vectors, recursively) at their byte offsets.
void scalarSlots(const DataLayout &DL, Type *Ty, uint64_t Offset,
                 SmallVectorImpl<Slot> &Out) {
  if (auto *Struct = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(Struct);
    for (auto [I, Field] : enumerate(Struct->elements()))
      scalarSlots(DL, Field,
                  Offset + Layout->getElementOffset(I).getFixedValue(), Out);
  } else if (auto *Array = dyn_cast<ArrayType>(Ty)) {
    uint64_t Size = DL.getTypeAllocSize(Array->getElementType());
    for (uint64_t I = 0; I < Array->getNumElements(); ++I)
      scalarSlots(DL, Array->getElementType(), Offset + I * Size, Out);
  } else if (auto *Vector = dyn_cast<FixedVectorType>(Ty)) {
    uint64_t Size = DL.getTypeAllocSize(Vector->getElementType());
    for (unsigned I = 0; I < Vector->getNumElements(); ++I)
      Out.push_back({Offset + I * Size, Vector->getElementType()});
  } else {
    Out.push_back({Offset, Ty});
  }
}

/// Where each of \p Values goes in the declared type: its floating-point
/// slots when there is one per value (each value converted to its slot's
/// precision: a struct of doubles takes float results); otherwise the C
/// struct of the values themselves, if the declared type has room.
std::optional<SmallVector<Slot, 8>>
placeResults(const DataLayout &DL, Type *Declared, ArrayRef<Type *> Types) {
  SmallVector<Slot, 8> Slots;
  scalarSlots(DL, Declared, 0, Slots);
  auto IsFP = [](Type *Ty) { return Ty->isFloatingPointTy(); };
  if (Slots.size() == Types.size() &&
      all_of(Slots, [&](const Slot &S) { return IsFP(S.Ty); }) &&
      all_of(Types, IsFP))
    return Slots;
  if (Declared->isFloatingPointTy() && !Types.empty())
    return std::nullopt; // one scalar declared for several results
  const StructLayout *Layout =
      DL.getStructLayout(StructType::get(Declared->getContext(), Types));
  if (Layout->getSizeInBytes() > DL.getTypeStoreSize(Declared))
    return std::nullopt;
  Slots.clear();
  for (auto [I, Ty] : enumerate(Types))
    Slots.push_back({Layout->getElementOffset(I).getFixedValue(), Ty});
  return Slots;
}

/// The types of what the entry point returns, in order.
SmallVector<Type *, 8> resultTypes(const EnzymeCall &EC) {
  SmallVector<Type *, 8> Types;
  Function &Target = *EC.Request.Target;
  Type *RetTy = Target.getReturnType();
  switch (EC.Entry) {
  case EnzymeEntry::FwdDiff:
    if (RetTy->isFloatingPointTy())
      Types.append(EC.Width, RetTy);
    break;
  case EnzymeEntry::AugmentFwd:
    Types.push_back(PointerType::getUnqual(Target.getContext()));
    if (!RetTy->isVoidTy() && !EC.ResultType->isPointerTy())
      Types.push_back(RetTy);
    break;
  default:
    for (auto [I, Activity] : enumerate(EC.Request.Args))
      if (Activity == ArgActivity::Active)
        Types.append(EC.Width, Target.getArg(I)->getType());
    break;
  }
  return Types;
}

/// Where the results go in the declared type; an error (before anything
/// is emitted) when they do not fit.
Expected<SmallVector<Slot, 8>> resultSlots(const EnzymeCall &EC) {
  SmallVector<Type *, 8> Types = resultTypes(EC);
  if (EC.ResultType->isVoidTy())
    return SmallVector<Slot, 8>();
  const DataLayout &DL = EC.Call->getModule()->getDataLayout();
  if (std::optional<SmallVector<Slot, 8>> Slots =
          placeResults(DL, EC.ResultType, Types))
    return std::move(*Slots);
  return failAt(*EC.Call, "the result type declared for '" +
                              entryName(*EC.Call) + "' cannot hold its " +
                              Twine(Types.size()) +
                              " results (declare it to return a struct "
                              "with one field per result)");
}

/// \p Values stored as the declared result type (or into its sret
/// memory) at \p Slots. Returns the call's new result, null when it has
/// none.
Value *packResults(IRBuilderBase &B, const EnzymeCall &EC,
                   ArrayRef<Value *> Values, ArrayRef<Slot> Slots) {
  Type *Declared = EC.ResultType;
  if (Declared->isVoidTy())
    return nullptr;
  if (!EC.ResultMemory && Values.size() == 1 &&
      Values[0]->getType() == Declared)
    return Values[0];
  Value *Memory = EC.ResultMemory;
  if (!Memory) {
    Memory = entryAlloca(B, Declared, "enzyme.result");
    B.CreateStore(Constant::getNullValue(Declared), Memory);
  }
  for (auto [S, V] : zip(Slots, Values)) {
    Value *Stored = V->getType() == S.Ty ? V : B.CreateFPCast(V, S.Ty);
    B.CreateStore(
        Stored, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Memory, S.Offset));
  }
  if (EC.ResultMemory)
    return nullptr;
  return B.CreateLoad(Declared, Memory, "enzyme.result");
}

Expected<Value *> serve(EnzymeCall &EC) {
  Expected<SmallVector<Slot, 8>> Slots = resultSlots(EC);
  if (!Slots)
    return Slots.takeError();
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
  return packResults(B, EC, *Values, *Slots);
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
