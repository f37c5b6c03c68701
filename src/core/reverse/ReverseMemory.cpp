//===- ReverseMemory.cpp - The reverse sweep of memory operations ---------===//
//
//   y = load p          shadow(p) += ȳ
//   store v, p          v̄ += shadow(p); shadow(p) = 0
//   memset p, _, n      shadow(p)[0, n) = 0
//   memcpy d, s, n      shadow(s) += shadow(d); shadow(d) = 0   (elementwise)
//   p = malloc/new      free(shadow(p))   (the heap shadow lives until here;
//                       one of the primal's allocator goes back its way)
//   store q, p          shadow(p) = its value before (p the caller's)
//
//===----------------------------------------------------------------------===//
#include "Allocations.h"
#include "ByteLayout.h"
#include "CallDerivatives.h"
#include "CopyAdjoints.h"
#include "DiffError.h"
#include "HeapShadows.h"
#include "LibC.h"
#include "MemoryTypes.h"
#include "OpenMP.h"
#include "ReverseEmitter.h"
#include "Tape.h"
#include "Target.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

/// Barriers the reverse sweep replays at the mirrored point: what threads
/// exchanged through memory after the barrier, their adjoints exchange
/// before it.
static bool isBarrier(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_barrier0:
  case Intrinsic::nvvm_barrier_sync:
  case Intrinsic::nvvm_barrier_sync_cnt:
  case Intrinsic::nvvm_bar_sync:
  case Intrinsic::amdgcn_s_barrier:
    return true;
  default:
    return false;
  }
}

void ReverseEmitter::emitLoadAdjoint(LoadInst &Load, Value *Adjoint,
                                     IRBuilderBase &B) {
  if (accumulateInLoop(Load, Adjoint, B))
    return;
  Value *Shadow = shadowAt(Load.getPointerOperand(), B);
  // On a GPU or in an OpenMP region, memory outside the thread's own stack
  // may be read by many threads: their adjoints add up atomically.
  if (otherThreadsWrite(*Derivative) &&
      !isa<AllocaInst>(getUnderlyingObject(Load.getPointerOperand()))) {
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, Shadow, Adjoint, Load.getAlign(),
                      AtomicOrdering::Monotonic)
        ->setMetadata(LLVMContext::MD_noalias,
                      tapeEntriesScope(B.getContext()));
    return;
  }
  // Shadow memory holds what the primal's does, in the same types: its
  // accesses keep the primal's type tags (double stores of adjoints then
  // do not make the shadows' own data pointers look changed).
  auto *Old = B.CreateAlignedLoad(Load.getType(), Shadow, Load.getAlign());
  Old->copyMetadata(Load, {LLVMContext::MD_tbaa});
  // The sign of a zero adjoint means nothing: without it, the reverse of
  // an increment (`*p += t`: p's shadow read and zeroed, then added to
  // again) folds back to the value read, and the shadow's load, zeroing
  // and store go away.
  auto *Sum = B.CreateFAdd(Old, Adjoint);
  if (auto *Add = dyn_cast<Instruction>(Sum))
    Add->setHasNoSignedZeros(true);
  B.CreateAlignedStore(Sum, Shadow, Load.getAlign())
      ->copyMetadata(Load, {LLVMContext::MD_tbaa});
}

Error ReverseEmitter::emitMemoryAdjoint(Instruction &I, IRBuilderBase &B) {
  if (auto *Bulk = dyn_cast<MemIntrinsic>(&I))
    restorePreImage(*Bulk, B);
  if (auto *Intr = dyn_cast<IntrinsicInst>(&I);
      Intr && isBarrier(Intr->getIntrinsicID())) {
    if (Lane > 0) // one barrier serves all lanes
      return Error::success();
    SmallVector<Value *, 2> Args;
    for (Value *A : Intr->args())
      Args.push_back(primalValue(A, B));
    B.CreateCall(Intr->getCalledFunction(), Args);
    return Error::success();
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (isSynchronization(*Call)) {
      if (Lane == 0) // one mirror serves all lanes
        emitSynchronizationMirror(*Call, B,
                                  [&](Value *V) { return primalValue(V, B); });
      return Error::success();
    }
    if (const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
        Custom && Custom->Pullback)
      return emitCustomReverse(*Call, *Custom, nullptr, B);
    if (auto Split = SplitCalls.find(Call); Split != SplitCalls.end())
      return emitSplitCallReverse(*Call, Split->second, nullptr, B);
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    // *p += v (or -= v): v's adjoint is p's, which stays as it is. Other
    // threads may add to p's shadow meanwhile: read it atomically.
    Value *V = RMW->getValOperand();
    if (!V->getType()->isFloatingPointTy() ||
        !Activity->isShadowed(RMW->getPointerOperand()))
      return Error::success();
    auto *Adjoint = B.CreateAlignedLoad(
        V->getType(), shadowAt(RMW->getPointerOperand(), B), RMW->getAlign());
    Adjoint->setAtomic(AtomicOrdering::Monotonic);
    accumulate(V,
               RMW->getOperation() == AtomicRMWInst::FSub
                   ? B.CreateFNeg(Adjoint)
                   : static_cast<Value *>(Adjoint),
               B);
    return Error::success();
  }
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    if (LoadInst *Source = Activity->integerCopySource(Store))
      return emitIntegerCopyAdjoint(*Store, *Source, B);
    Value *V = Store->getValueOperand();
    if (!Activity->isShadowed(Store->getPointerOperand()))
      return Error::success();
    if (Value *Before = shadows().overwrittenShadowPointers().lookup(Store)) {
      B.CreateAlignedStore(primalValue(Before, B),
                           shadowAt(Store->getPointerOperand(), B),
                           Store->getAlign());
      return Error::success();
    }
    if (Error E = checkIntegerStore(*Store, Req.ArgElementTypes))
      return E;
    if (!V->getType()->isFloatingPointTy())
      return Error::success();
    Value *Shadow = shadowAt(Store->getPointerOperand(), B);
    auto *Adjoint =
        B.CreateAlignedLoad(V->getType(), Shadow, Store->getAlign());
    Adjoint->copyMetadata(*Store, {LLVMContext::MD_tbaa});
    B.CreateAlignedStore(Constant::getNullValue(V->getType()), Shadow,
                         Store->getAlign())
        ->copyMetadata(*Store, {LLVMContext::MD_tbaa});
    accumulate(V, Adjoint, B);
    return Error::success();
  }
  if (auto *Transfer = dyn_cast<MemTransferInst>(&I))
    return emitTransferAdjoint(*Transfer, B);
  if (auto *Set = dyn_cast<MemSetInst>(&I)) {
    if (Activity->isShadowed(Set->getRawDest()))
      emitSetAdjoint(*Set, B);
    return Error::success();
  }
  if (Value *Own = shadows().primalAllocatorShadows().lookup(&I)) {
    std::optional<Release> How = releaseOfAllocation(cast<CallBase>(I), TLI);
    if (How->Alignment)
      How->Alignment = primalValue(How->Alignment, B);
    emitRelease(B, *How, primalValue(Own, B));
    return Error::success();
  }
  Value *HeapShadow = shadows().heapShadows().lookup(&I);
  if (!HeapShadow)
    return Error::success();
  if (Value *Old = shadows().reallocations().lookup(&I)) {
    Type *Element = soleElementType({Old, &I}, Req.ArgElementTypes);
    if (!Element && I.hasMetadata(TapeGrowthMetadata))
      return unsupported(
          I, "reverse mode over a gradient whose tape holds values of "
             "several types (a grad call inside a function differentiated "
             "in reverse mode) is not supported; differentiate the "
             "gradient in forward mode instead (slope::hvp, "
             "slope::hessian, or slope::derivative of the function "
             "calling grad)");
    if (!Element)
      return unsupported(I, "Slope cannot tell which floating-point type "
                            "the reallocated memory holds");
    returnReallocatedAdjoints(B, shadowAt(Old, B), primalValue(HeapShadow, B),
                              Element);
  } else {
    freeHeapShadow(B, primalValue(HeapShadow, B));
  }
  return Error::success();
}

void ReverseEmitter::emitSetAdjoint(MemSetInst &Set, IRBuilderBase &B) {
  Value *Dest = Set.getRawDest();
  Value *Shadow = shadowAt(Dest, B);
  Value *Bytes = primalValue(Set.getLength(), B);
  // Memory of records holding pointers (std::vector objects cleared after
  // they moved): the shadows of the pointers stay, the caller's shadow
  // objects among them.
  if (holdsPointersOnly(
          {Dest}, [&](const CallBase &Call) { return isRelease(Call, TLI); }))
    return;
  std::optional<ByteLayout> Layout =
      soleElementType({Dest}, Req.ArgElementTypes)
          ? std::nullopt
          : copiedByteLayout(Dest, Dest, &Set, Req.ArgElementTypes,
                             Set.getDataLayout());
  if (!Layout || Layout->Pointers.empty()) {
    B.CreateMemSet(Shadow, B.getInt8(0), Bytes, Set.getDestAlign());
    return;
  }
  B.CreateCall(zeroAdjointsFunction(*Set.getModule(), *Layout),
               {Shadow, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty())});
}

Error ReverseEmitter::emitIntegerCopyAdjoint(StoreInst &Store, LoadInst &Source,
                                             IRBuilderBase &B) {
  Value *To = Store.getPointerOperand(), *From = Source.getPointerOperand();
  Type *Element = soleElementType({To, From}, Req.ArgElementTypes);
  unsigned Bits = Store.getValueOperand()->getType()->getPrimitiveSizeInBits();
  if (Element && Element->getPrimitiveSizeInBits() == Bits) {
    // Load and store are adjacent: the whole move reverses here.
    Value *ToShadow = shadowAt(To, B), *FromShadow = shadowAt(From, B);
    Value *Adjoint = B.CreateAlignedLoad(Element, ToShadow, Store.getAlign());
    B.CreateAlignedStore(Constant::getNullValue(Element), ToShadow,
                         Store.getAlign());
    Value *Old = B.CreateAlignedLoad(Element, FromShadow, Source.getAlign());
    B.CreateAlignedStore(B.CreateFAdd(Old, Adjoint), FromShadow,
                         Source.getAlign());
    return Error::success();
  }
  // Part of a record (a struct of mixed fields moved as integers).
  std::optional<ByteLayout> Layout =
      Element ? std::nullopt
              : copiedByteLayout(To, From, nullptr, Req.ArgElementTypes,
                                 Derivative->getDataLayout());
  if (!Layout)
    return unsupported(Store, "it copies memory as integers, and Slope "
                              "cannot tell whether the bytes are "
                              "floating-point data (copy the values as "
                              "double or float)");
  if (!Layout->Floats.empty())
    B.CreateCall(
        transferAdjointFunction(*Derivative->getParent(), *Layout, false),
        {shadowAt(To, B), shadowAt(From, B), B.getInt64(Bits / 8)});
  return Error::success();
}

Error ReverseEmitter::emitTransferAdjoint(MemTransferInst &Transfer,
                                          IRBuilderBase &B) {
  Value *DestPtr = Transfer.getRawDest(), *SourcePtr = Transfer.getRawSource();
  bool DestShadowed = Activity->isShadowed(DestPtr);
  bool SourceShadowed = Activity->isShadowed(SourcePtr);
  if (!DestShadowed) {
    // (Integers copied out of memory that also holds differentiated data
    // carry no adjoint.)
    if (SourceShadowed && !copiesPlainData(Transfer))
      return unsupported(Transfer, "it copies differentiated data into "
                                   "memory Slope does not track");
    return Error::success();
  }
  Value *Length = primalValue(Transfer.getLength(), B);
  Value *Dest = shadowAt(DestPtr, B);
  if (!SourceShadowed) {
    // Overwritten with untracked data: the adjoints stop here.
    B.CreateMemSet(Dest, B.getInt8(0), Length, Transfer.getDestAlign());
    return Error::success();
  }
  // The source's types first, then what the function's accesses say.
  std::optional<ByteLayout> Layout = markedRecordLayout(Transfer);
  if (!Layout) {
    if (Type *Element =
            soleElementType({DestPtr, SourcePtr}, Req.ArgElementTypes))
      Layout = elementArrayLayout(Element);
    else
      Layout =
          copiedByteLayout(DestPtr, SourcePtr, &Transfer, Req.ArgElementTypes,
                           Derivative->getDataLayout());
  }
  if (!Layout)
    return unsupported(Transfer, "Slope cannot tell which floating-point "
                                 "type the copied bytes hold (copy the "
                                 "elements in a loop, copy arrays of one "
                                 "floating-point type, or size a std::vector "
                                 "of records once instead of growing it)");
  if (Layout->Floats.empty())
    return Error::success(); // integers and pointers: no adjoints
  B.CreateCall(transferAdjointFunction(*Derivative->getParent(), *Layout,
                                       isa<MemMoveInst>(Transfer)),
               {Dest, shadowAt(SourcePtr, B),
                B.CreateZExtOrTrunc(Length, B.getInt64Ty())});
  return Error::success();
}

} // namespace slope
