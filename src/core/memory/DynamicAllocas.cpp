//===- DynamicAllocas.cpp -------------------------------------------------===//
#include "DynamicAllocas.h"
#include "LibC.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {
namespace {

/// malloc(bytes), or aligned_alloc for alignments above what malloc gives.
Value *allocate(IRBuilderBase &B, Value *Bytes, Align Alignment) {
  // At least one byte: malloc(0) may return null.
  Bytes = B.CreateBinaryIntrinsic(Intrinsic::umax, Bytes, B.getInt64(1));
  if (Alignment.value() <= 16)
    return callMalloc(B, Bytes);
  return callAlignedAlloc(B, B.getInt64(Alignment.value()), Bytes);
}

} // namespace

bool moveDynamicAllocasToHeap(Function &F) {
  SmallVector<AllocaInst *, 4> Dynamic;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (!A->isStaticAlloca() && A->getAllocatedType()->isSized())
          Dynamic.push_back(A);
  if (Dynamic.empty())
    return false;
  const DataLayout &DL = F.getDataLayout();
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);
  for (AllocaInst *A : Dynamic) {
    // A slot holds the last allocation made here: the next one frees it
    // (that iteration's array is dead by then, as its stack space would
    // have been reused), and so do the returns. SROA turns the slot into
    // phis, through which the frees still name their allocations.
    IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot = Entry.CreateAlloca(Entry.getPtrTy());
    Entry.CreateStore(ConstantPointerNull::get(Entry.getPtrTy()), Slot);
    IRBuilder<> B(A);
    callFree(B, B.CreateLoad(B.getPtrTy(), Slot));
    Value *Count = B.CreateZExtOrTrunc(A->getArraySize(), B.getInt64Ty());
    Value *Bytes = B.CreateMul(
        Count, B.getInt64(DL.getTypeAllocSize(A->getAllocatedType())));
    Value *Heap = allocate(B, Bytes, A->getAlign());
    B.CreateStore(Heap, Slot);
    Heap->takeName(A);
    A->replaceAllUsesWith(Heap);
    A->eraseFromParent();
    for (ReturnInst *Ret : Returns) {
      IRBuilder<> R(Ret);
      callFree(R, R.CreateLoad(R.getPtrTy(), Slot));
    }
  }
  return true;
}

} // namespace slope
