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

} // namespace slope
