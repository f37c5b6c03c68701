//===- ReverseMemory.cpp - The reverse sweep of memory operations ---------===//
//
//   y = load p          shadow(p) += ȳ
//   store v, p          v̄ += shadow(p); shadow(p) = 0
//   memset p, _, n      shadow(p)[0, n) = 0
//   memcpy d, s, n      shadow(s) += shadow(d); shadow(d) = 0   (elementwise)
//   p = malloc/new      free(shadow(p))   (the heap shadow lives until here)
//
//===----------------------------------------------------------------------===//
#include "DiffError.h"
#include "HeapShadows.h"
#include "ReverseEmitter.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

namespace {

/// The one floating-point type stored in the objects the pointers point
/// into, judged from every access to them; null when there are several, or
/// other data besides, or no access says.
Type *soleElementType(ArrayRef<Value *> Pointers) {
  Type *Element = nullptr;
  auto Accept = [&Element](Type *Ty) {
    if (!Ty->isFloatingPointTy() || (Element && Element != Ty))
      return false;
    Element = Ty;
    return true;
  };
  for (Value *Pointer : Pointers) {
    Value *Object = getUnderlyingObject(Pointer, 0);
    SmallVector<Instruction *, 16> Accesses;
    collectAccesses(Object, Accesses);
    for (Instruction *A : Accesses) {
      Type *Ty = nullptr;
      if (auto *Load = dyn_cast<LoadInst>(A))
        Ty = Load->getType();
      else if (auto *Store = dyn_cast<StoreInst>(A))
        Ty = Store->getValueOperand()->getType();
      if (Ty && !Accept(Ty))
        return nullptr;
    }
    if (auto *Alloca = dyn_cast<AllocaInst>(Object)) {
      Type *Allocated = Alloca->getAllocatedType();
      while (auto *Array = dyn_cast<ArrayType>(Allocated))
        Allocated = Array->getElementType();
      if (!Accept(Allocated))
        return nullptr;
    }
  }
  return Element;
}

/// slope.{copy,move}.adjoint.<bits>(shadow dest, shadow source, bytes):
/// t = dest; dest = 0; source += t, elementwise in T. memcpy regions do not
/// overlap, so that happens element by element in place; memmove goes
/// through a temporary.
Function *transferAdjointFunction(Module &M, Type *Element, bool Overlap) {
  std::string Name = std::string(Overlap ? "slope.move" : "slope.copy") +
                     ".adjoint." +
                     std::to_string(Element->getPrimitiveSizeInBits());
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *Helper = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false),
      GlobalValue::InternalLinkage, Name, M);
  Value *Dest = Helper->getArg(0), *Source = Helper->getArg(1),
        *Bytes = Helper->getArg(2);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Helper);
  BasicBlock *Loop = BasicBlock::Create(Ctx, "loop", Helper);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Helper);
  IRBuilder<> B(Entry);
  FunctionCallee Free = M.getOrInsertFunction(
      "free", FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  Value *From = Dest;
  if (Overlap) {
    FunctionCallee Malloc =
        M.getOrInsertFunction("malloc", FunctionType::get(Ptr, {I64}, false));
    From = B.CreateCall(Malloc, {Bytes});
    B.CreateMemCpy(From, MaybeAlign(), Dest, MaybeAlign(), Bytes);
    B.CreateMemSet(Dest, B.getInt8(0), Bytes, MaybeAlign());
  }
  uint64_t Size = Element->getPrimitiveSizeInBits() / 8;
  Value *Count = B.CreateUDiv(Bytes, B.getInt64(Size));
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *Index = B.CreatePHI(I64, 2);
  Index->addIncoming(B.getInt64(0), Entry);
  Value *FromAt = B.CreateGEP(Element, From, Index);
  Value *Adjoint = B.CreateLoad(Element, FromAt);
  if (!Overlap)
    B.CreateStore(Constant::getNullValue(Element), FromAt);
  Value *To = B.CreateGEP(Element, Source, Index);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(Element, To), Adjoint), To);
  Value *Next = B.CreateAdd(Index, B.getInt64(1));
  Index->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(Next, Count), Done, Loop);
  B.SetInsertPoint(Done);
  if (Overlap)
    B.CreateCall(Free, {From});
  B.CreateRetVoid();
  return Helper;
}

} // namespace

void ReverseEmitter::emitLoadAdjoint(LoadInst &Load, Value *Adjoint,
                                     IRBuilderBase &B) {
  Value *Shadow = shadowAt(Load.getPointerOperand(), B);
  Value *Old = B.CreateAlignedLoad(Load.getType(), Shadow, Load.getAlign());
  B.CreateAlignedStore(B.CreateFAdd(Old, Adjoint), Shadow, Load.getAlign());
}

Error ReverseEmitter::emitMemoryAdjoint(Instruction &I, IRBuilderBase &B) {
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Value *V = Store->getValueOperand();
    if (!V->getType()->isFloatingPointTy() ||
        !Activity->isShadowed(Store->getPointerOperand()))
      return Error::success();
    Value *Shadow = shadowAt(Store->getPointerOperand(), B);
    Value *Adjoint =
        B.CreateAlignedLoad(V->getType(), Shadow, Store->getAlign());
    B.CreateAlignedStore(Constant::getNullValue(V->getType()), Shadow,
                         Store->getAlign());
    accumulate(V, Adjoint, B);
    return Error::success();
  }
  if (auto *Transfer = dyn_cast<MemTransferInst>(&I))
    return emitTransferAdjoint(*Transfer, B);
  if (auto *Set = dyn_cast<MemSetInst>(&I)) {
    if (Activity->isShadowed(Set->getRawDest()))
      B.CreateMemSet(shadowAt(Set->getRawDest(), B), B.getInt8(0),
                     primalValue(Set->getLength(), B), Set->getDestAlign());
    return Error::success();
  }
  Value *HeapShadow = Shadows->heapShadows().lookup(&I);
  if (!HeapShadow)
    return Error::success();
  if (Value *Old = Shadows->reallocations().lookup(&I)) {
    Type *Element = soleElementType({Old, &I});
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

Error ReverseEmitter::emitTransferAdjoint(MemTransferInst &Transfer,
                                          IRBuilderBase &B) {
  Value *DestPtr = Transfer.getRawDest(), *SourcePtr = Transfer.getRawSource();
  bool DestShadowed = Activity->isShadowed(DestPtr);
  bool SourceShadowed = Activity->isShadowed(SourcePtr);
  if (!DestShadowed) {
    if (SourceShadowed)
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
  Type *Element = soleElementType({DestPtr, SourcePtr});
  if (!Element)
    return unsupported(Transfer, "Slope cannot tell which floating-point "
                                 "type the copied bytes hold (copy the "
                                 "elements in a loop, or copy arrays of one "
                                 "floating-point type)");
  B.CreateCall(transferAdjointFunction(*Derivative->getParent(), Element,
                                       isa<MemMoveInst>(Transfer)),
               {Dest, shadowAt(SourcePtr, B),
                B.CreateZExtOrTrunc(Length, B.getInt64Ty())});
  return Error::success();
}

} // namespace slope
