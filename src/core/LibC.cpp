//===- LibC.cpp -----------------------------------------------------------===//
#include "LibC.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

Value *callMalloc(IRBuilderBase &B, Value *Bytes, const Twine &Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Size = M.getDataLayout().getIntPtrType(M.getContext());
  FunctionCallee Malloc = M.getOrInsertFunction(
      "malloc", FunctionType::get(B.getPtrTy(), {Size}, false));
  return B.CreateCall(Malloc, {B.CreateZExtOrTrunc(Bytes, Size)}, Name);
}

void callFree(IRBuilderBase &B, Value *Pointer) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Free = M.getOrInsertFunction(
      "free", FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false));
  B.CreateCall(Free, {Pointer});
}

Value *callAlignedAlloc(IRBuilderBase &B, Value *Alignment, Value *Bytes,
                        const Twine &Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Size = M.getDataLayout().getIntPtrType(M.getContext());
  Alignment = B.CreateZExtOrTrunc(Alignment, Size);
  Bytes = B.CreateZExtOrTrunc(Bytes, Size);
  Value *Rounded = B.CreateMul(
      B.CreateUDiv(
          B.CreateAdd(Bytes, B.CreateSub(Alignment, ConstantInt::get(Size, 1))),
          Alignment),
      Alignment);
  FunctionCallee AlignedAlloc = M.getOrInsertFunction(
      "aligned_alloc", FunctionType::get(B.getPtrTy(), {Size, Size}, false));
  return B.CreateCall(AlignedAlloc, {Alignment, Rounded}, Name);
}

} // namespace slope
