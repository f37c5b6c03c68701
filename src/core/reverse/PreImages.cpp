//===- PreImages.cpp - Pre-images of bulk writes --------------------------===//
//
// A load in a loop whose memory only one memcpy/memmove/memset may write
// (the copy back into x at the end of each product of a matrix-vector
// chain) would be taped once per execution. Instead the primal sweep copies
// what the bulk write overwrites -- its pre-image -- to the heap, one copy
// per execution of the write, and the reverse sweep puts the pre-image back
// where it reverses the write. Memory then holds, at the reverse of each
// such load, what the load read: the reverse sweep loads it again, with no
// test of where the address falls. The memory the writes cover is saved as
// the primal sweep leaves it, and put back when the derivative returns.
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
#include "llvm/IR/Dominators.h"
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

void ReverseEmitter::planPreImages(
    const MapVector<LoadInst *, MemIntrinsic *> &OnlyBulkWriter) {
  const DataLayout &DL = Derivative->getDataLayout();
  auto OncePerCall = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || !InLoop.contains(I->getParent());
  };
  // Where the primal sweep ends, the destination must be at hand (kept in
  // a slot, the pointer would look like data stored in the array).
  DominatorTree DT(*Derivative);
  auto AtEveryReturn = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || all_of(*Derivative, [&](BasicBlock &BB) {
      return !isa<ReturnInst>(BB.getTerminator()) ||
             DT.dominates(I, BB.getTerminator());
    });
  };
  for (auto [Load, Write] : OnlyBulkWriter) {
    uint64_t Size = DL.getTypeStoreSize(Load->getType());
    Value *Dest = Write->getRawDest();
    if (!InLoop.contains(Load->getParent()) ||
        Write->getParent() == Load->getParent() || !isPowerOf2_64(Size) ||
        !OncePerCall(Dest) || !AtEveryReturn(Dest) ||
        !OncePerCall(Write->getLength()) ||
        computeKnownBits(Write->getLength(), DL).countMinTrailingZeros() <
            Log2_64(Size) ||
        !isWholeElementsFrom(Load->getPointerOperand(), Dest, Size, DL) ||
        !availableWithoutTape(Load->getPointerOperand()))
      continue;
    PreImageOf[Load] = Write;
    PreImage &Pre = PreImages[Write];
    if (Pre.Copy)
      continue;
    IRBuilder<> B(Write);
    Value *Bytes = Write->getLength();
    Pre.Copy = cast<CallInst>(preImageMalloc(B, Bytes, "pre.image"));
    withoutReverse(
        B.CreateMemCpy(Pre.Copy, MaybeAlign(), Dest, MaybeAlign(), Bytes));
    // How much the write covered, for the state the primal sweep leaves:
    // 0 until it runs.
    Pre.Bytes = entrySlot(B.getInt64Ty(), "bulk.bytes", B.getInt64(0));
    Pre.Final = entrySlot(B.getPtrTy(), "bulk.final", nullptr);
    withoutReverse(B.CreateStore(
        withoutReverse(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty())), Pre.Bytes));
  }
}

Value *ReverseEmitter::withoutReverse(Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    PreImageCopies.insert(I);
  return V;
}

Value *ReverseEmitter::preImageMalloc(IRBuilderBase &B, Value *Bytes,
                                      const Twine &Name) {
  auto *Call = cast<CallInst>(withoutReverse(callMalloc(B, Bytes, Name)));
  withoutReverse(Call->getArgOperand(0)); // the conversion to size_t
  return Call;
}

void ReverseEmitter::saveFinalMemory(IRBuilderBase &B) {
  for (auto &[Write, Pre] : PreImages) {
    Value *Bytes = withoutReverse(B.CreateLoad(B.getInt64Ty(), Pre.Bytes));
    Value *Final = preImageMalloc(B, Bytes, "bulk.final");
    withoutReverse(B.CreateMemCpy(Final, MaybeAlign(), Write->getRawDest(),
                                  MaybeAlign(), Bytes));
    withoutReverse(B.CreateStore(Final, Pre.Final));
  }
}

void ReverseEmitter::restoreFinalMemory(IRBuilderBase &B) {
  for (auto &[Write, Pre] : PreImages) {
    Value *Dest = primalValue(Write->getRawDest(), B);
    Value *Bytes = B.CreateLoad(B.getInt64Ty(), Pre.Bytes);
    Value *Final = B.CreateLoad(B.getPtrTy(), Pre.Final);
    B.CreateMemCpy(Dest, MaybeAlign(), Final, MaybeAlign(), Bytes);
    callFree(B, Final);
  }
}

Value *ReverseEmitter::preImageValue(Instruction &I, IRBuilderBase &B) {
  auto *Load = cast<LoadInst>(&I);
  return B.CreateAlignedLoad(Load->getType(),
                             primalValue(Load->getPointerOperand(), B),
                             Load->getAlign(), Load->getName() + ".pre");
}

void ReverseEmitter::restorePreImage(MemIntrinsic &Write, IRBuilderBase &B) {
  auto Found = PreImages.find(&Write);
  if (Found == PreImages.end() || Lane > 0)
    return;
  Value *Copy = primalValue(Found->second.Copy, B);
  B.CreateMemCpy(primalValue(Write.getRawDest(), B), MaybeAlign(), Copy,
                 MaybeAlign(), primalValue(Write.getLength(), B));
  callFree(B, Copy);
}

} // namespace slope
