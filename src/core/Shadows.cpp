//===- Shadows.cpp --------------------------------------------------------===//
#include "Shadows.h"
#include "Allocations.h"
#include "DiffError.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

Value *ShadowMap::get(Value *Pointer) const {
  if (Value *S = Shadows.lookup(Pointer))
    return S;
  // Null and undefined pointers have no memory to mirror.
  return ConstantPointerNull::get(cast<PointerType>(Pointer->getType()));
}

FunctionCallee ShadowMap::freeFunction() {
  LLVMContext &Ctx = F.getContext();
  return F.getParent()->getOrInsertFunction(
      "free", FunctionType::get(Type::getVoidTy(Ctx),
                                {PointerType::getUnqual(Ctx)}, false));
}

Error ShadowMap::buildTwin(Instruction &I) {
  IRBuilder<> B(I.getParent(), std::next(I.getIterator()));
  std::string Name = (I.getName() + ".shadow").str();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    SmallVector<Value *, 4> Indices(GEP->indices());
    Shadows[&I] =
        B.CreateGEP(GEP->getSourceElementType(), get(GEP->getPointerOperand()),
                    Indices, Name, GEP->isInBounds());
  } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
    B.SetInsertPoint(I.getParent(), I.getParent()->getFirstNonPHIIt());
    PHINode *Twin = B.CreatePHI(I.getType(), Phi->getNumIncomingValues(), Name);
    Phis.push_back({Phi, Twin});
    Shadows[&I] = Twin;
  } else if (auto *Select = dyn_cast<SelectInst>(&I)) {
    Shadows[&I] =
        B.CreateSelect(Select->getCondition(), get(Select->getTrueValue()),
                       get(Select->getFalseValue()), Name);
  } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
    Shadows[&I] = B.CreateAlignedLoad(
        I.getType(), get(Load->getPointerOperand()), Load->getAlign(), Name);
  } else if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
    if (!Alloca->isStaticAlloca())
      return unsupported(I, "variable-sized or loop-local stack arrays of "
                            "differentiated data are not supported yet");
    AllocaInst *Twin = B.CreateAlloca(Alloca->getAllocatedType(),
                                      Alloca->getArraySize(), Name);
    Twin->setAlignment(Alloca->getAlign());
    const DataLayout &DL = F.getDataLayout();
    std::optional<TypeSize> Bytes = Alloca->getAllocationSize(DL);
    B.CreateMemSet(Twin, B.getInt8(0), Bytes->getFixedValue(),
                   Alloca->getAlign());
    Shadows[&I] = Twin;
  } else if (auto *Call = dyn_cast<CallBase>(&I)) {
    std::optional<Allocation> Alloc = asAllocation(*Call, TLI);
    if (!Alloc)
      return unsupported(I, "Slope cannot give this pointer a shadow");
    if (isa<InvokeInst>(Call))
      return unsupported(I, "allocations that may throw inside exception "
                            "handling code are not supported yet");
    LLVMContext &Ctx = F.getContext();
    Type *Ptr = PointerType::getUnqual(Ctx);
    Type *SizeTy = Type::getInt64Ty(Ctx);
    FunctionCallee Calloc = F.getParent()->getOrInsertFunction(
        "calloc", FunctionType::get(Ptr, {SizeTy, SizeTy}, false));
    Value *Twin =
        Alloc->Zeroed
            ? B.CreateCall(Calloc,
                           {Call->getArgOperand(0), Call->getArgOperand(1)},
                           Name)
            : B.CreateCall(
                  Calloc,
                  {B.getInt64(1), B.CreateZExtOrTrunc(Alloc->Size, SizeTy)},
                  Name);
    Shadows[&I] = Twin;
    HeapShadows[&I] = Twin;
  } else {
    return unsupported(I, "Slope cannot give this pointer a shadow");
  }
  return Error::success();
}

void ShadowMap::mirrorPointerStore(StoreInst &Store) {
  // A pointer without a shadow is stored as null in the shadow memory: a
  // later access through it faults instead of corrupting primal data.
  Value *V = Store.getValueOperand();
  Value *Twin = Activity.isShadowed(V)
                    ? get(V)
                    : ConstantPointerNull::get(cast<PointerType>(V->getType()));
  IRBuilder<> B(Store.getParent(), std::next(Store.getIterator()));
  B.CreateAlignedStore(Twin, get(Store.getPointerOperand()), Store.getAlign());
}

void ShadowMap::mirrorRelease(CallBase &Call, Value *Released) {
  // Forward mode frees a heap shadow with its primal; reverse mode keeps it
  // for the reverse sweep, which frees it where the allocation is reversed.
  if (Mode != DiffMode::Forward)
    return;
  Value *Twin = HeapShadows.lookup(getUnderlyingObject(Released));
  if (!Twin)
    return;
  IRBuilder<> B(Call.getParent(), std::next(Call.getIterator()));
  B.CreateCall(freeFunction(), {Twin});
}

Error ShadowMap::build() {
  ReversePostOrderTraversal<Function *> RPO(&F);
  SmallVector<Instruction *, 64> Primal;
  for (BasicBlock *BB : RPO)
    for (Instruction &I : *BB)
      Primal.push_back(&I);
  for (Instruction *I : Primal)
    if (Activity.isShadowed(I))
      if (Error E = buildTwin(*I))
        return E;
  for (auto [Phi, Twin] : Phis)
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      Twin->addIncoming(get(Phi->getIncomingValue(K)),
                        Phi->getIncomingBlock(K));
  for (Instruction *I : Primal) {
    if (auto *Store = dyn_cast<StoreInst>(I)) {
      if (Store->getValueOperand()->getType()->isPointerTy() &&
          Activity.isShadowed(Store->getPointerOperand()))
        mirrorPointerStore(*Store);
    } else if (auto *Call = dyn_cast<CallBase>(I)) {
      if (Value *Released = releasedPointer(*Call, TLI))
        mirrorRelease(*Call, Released);
    }
  }
  return Error::success();
}

} // namespace slope
