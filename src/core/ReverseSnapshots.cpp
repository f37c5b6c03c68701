//===- ReverseSnapshots.cpp - Pre-images of bulk writes -------------------===//
//
// A load in a loop whose memory only one memcpy/memmove/memset may write
// (the copy back into x at the end of each product of a matrix-vector
// chain) would be taped once per execution. Instead the primal sweep copies
// what the bulk write overwrites -- its pre-image -- to the heap, one copy
// per execution of the write, and the reverse sweep reads the load from the
// pre-image of the first bulk write after it: the most recently reversed
// one. Memory the write never covered still holds what the load read.
//
// The write's destination and length must have one value per call (defined
// outside loops), and the load must address the destination's object in
// whole elements, so that it lies wholly inside the pre-image or wholly
// outside it.
//
//===----------------------------------------------------------------------===//
#include "LibC.h"
#include "ReverseEmitter.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"

using namespace llvm;

namespace slope {

namespace {

/// Whether \p Pointer is \p Base plus whole multiples of \p Size bytes.
bool isWholeElementsFrom(Value *Pointer, Value *Base, uint64_t Size,
                         const DataLayout &DL) {
  while (Pointer != Base) {
    auto *GEP = dyn_cast<GEPOperator>(Pointer);
    if (!GEP)
      return false;
    unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
    MapVector<Value *, APInt> Variable;
    APInt Constant(Bits, 0);
    if (!GEP->collectOffset(DL, Bits, Variable, Constant) ||
        Constant.urem(Size) != 0 || any_of(Variable, [&](const auto &Term) {
          return Term.second.urem(Size) != 0;
        }))
      return false;
    Pointer = GEP->getPointerOperand();
  }
  return true;
}

} // namespace

void ReverseEmitter::planSnapshots(
    const DenseMap<LoadInst *, MemIntrinsic *> &OnlyBulkWriter) {
  const DataLayout &DL = Derivative->getDataLayout();
  auto OncePerCall = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || !InLoop.contains(I->getParent());
  };
  for (auto [Load, Write] : OnlyBulkWriter) {
    uint64_t Size = DL.getTypeStoreSize(Load->getType());
    Value *Dest = Write->getRawDest();
    if (!InLoop.contains(Load->getParent()) ||
        Write->getParent() == Load->getParent() || !isPowerOf2_64(Size) ||
        !OncePerCall(Dest) || !OncePerCall(Write->getLength()) ||
        computeKnownBits(Write->getLength(), DL).countMinTrailingZeros() <
            Log2_64(Size) ||
        !isWholeElementsFrom(Load->getPointerOperand(), Dest, Size, DL) ||
        !availableWithoutTape(Load->getPointerOperand()))
      continue;
    SnapshotOf[Load] = Write;
    Snapshot &Pre = Snapshots[Write];
    if (Pre.Copy)
      continue;
    IRBuilder<> B(Write);
    Value *Bytes = Write->getLength();
    Pre.Copy = cast<CallInst>(callMalloc(B, Bytes, "pre.image"));
    SnapshotCopies.insert(Pre.Copy);
    SnapshotCopies.insert(
        B.CreateMemCpy(Pre.Copy, MaybeAlign(), Dest, MaybeAlign(), Bytes));
    if (auto *Conversion = dyn_cast<Instruction>(Pre.Copy->getArgOperand(0)))
      SnapshotCopies.insert(Conversion);
    Pre.Current = entrySlot(B.getPtrTy(), "pre.image.current",
                            ConstantPointerNull::get(B.getPtrTy()));
  }
}

Value *ReverseEmitter::snapshotValue(Instruction &I, IRBuilderBase &B) {
  auto *Load = dyn_cast<LoadInst>(&I);
  MemIntrinsic *Write = Load ? SnapshotOf.lookup(Load) : nullptr;
  // Requested elsewhere, a bulk write could lie between the load and the
  // request.
  if (!Write || CurrentPrimal != Load->getParent())
    return nullptr;
  const Snapshot &Pre = Snapshots[Write];
  Value *Address = primalValue(Load->getPointerOperand(), B);
  Value *Dest = primalValue(Write->getRawDest(), B);
  Value *Bytes =
      B.CreateZExtOrTrunc(primalValue(Write->getLength(), B), B.getInt64Ty());
  Value *Copy = B.CreateLoad(B.getPtrTy(), Pre.Current);
  Value *Offset = B.CreateSub(B.CreatePtrToInt(Address, B.getInt64Ty()),
                              B.CreatePtrToInt(Dest, B.getInt64Ty()));
  Value *Inside =
      B.CreateAnd(B.CreateIsNotNull(Copy), B.CreateICmpULT(Offset, Bytes));
  Value *From =
      B.CreateSelect(Inside, B.CreateGEP(B.getInt8Ty(), Copy, Offset), Address);
  uint64_t Size = Derivative->getDataLayout().getTypeStoreSize(Load->getType());
  Align Alignment =
      std::min(Load->getAlign(), Align(std::min<uint64_t>(Size, 16)));
  return B.CreateAlignedLoad(Load->getType(), From, Alignment,
                             Load->getName() + ".pre");
}

void ReverseEmitter::reverseSnapshot(MemIntrinsic &Write, IRBuilderBase &B) {
  auto Found = Snapshots.find(&Write);
  if (Found == Snapshots.end() || Lane > 0)
    return;
  freeSnapshot(Found->second, B);
  B.CreateStore(primalValue(Found->second.Copy, B), Found->second.Current);
}

void ReverseEmitter::freeSnapshot(const Snapshot &Pre, IRBuilderBase &B) {
  callFree(B, B.CreateLoad(B.getPtrTy(), Pre.Current));
}

} // namespace slope
