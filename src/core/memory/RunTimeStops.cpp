//===- RunTimeStops.cpp ---------------------------------------------------===//
#include "RunTimeStops.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

Function *runTimeStop(Module &M) {
  const char *Name = "slope.escape.report";
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *Report =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
                       GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Report));
  FunctionCallee Print = M.getOrInsertFunction(
      "dprintf", FunctionType::get(B.getInt32Ty(), {B.getInt32Ty(), Ptr},
                                   /*isVarArg=*/true));
  B.CreateCall(Print, {B.getInt32(2), B.CreateGlobalStringPtr("%s\n"),
                       Report->getArg(0)});
  B.CreateCall(
      M.getOrInsertFunction("abort", FunctionType::get(B.getVoidTy(), false)));
  B.CreateUnreachable();
  Report->addFnAttr(Attribute::Cold);
  Report->addFnAttr(Attribute::NoReturn);
  return Report;
}

void emitZeroCheck(IRBuilderBase &At, Value *Memory, Value *Bytes,
                   Value *Message) {
  Module &M = *At.GetInsertBlock()->getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *Check = M.getFunction("slope.check.zero");
  if (!Check) {
    Check = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), {Ptr, I64, Ptr}, false),
        GlobalValue::InternalLinkage, "slope.check.zero", M);
    auto *Entry = BasicBlock::Create(Ctx, "entry", Check);
    auto *Loop = BasicBlock::Create(Ctx, "byte", Check);
    auto *Report = BasicBlock::Create(Ctx, "seeded", Check);
    auto *Next = BasicBlock::Create(Ctx, "next", Check);
    auto *Done = BasicBlock::Create(Ctx, "done", Check);
    IRBuilder<> B(Entry);
    B.CreateCondBr(B.CreateICmpEQ(Check->getArg(1), B.getInt64(0)), Done, Loop);
    B.SetInsertPoint(Loop);
    PHINode *Index = B.CreatePHI(I64, 2);
    Index->addIncoming(B.getInt64(0), Entry);
    Value *Byte = B.CreateLoad(
        B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Check->getArg(0), Index));
    B.CreateCondBr(B.CreateICmpNE(Byte, B.getInt8(0)), Report, Next);
    B.SetInsertPoint(Report);
    B.CreateCall(runTimeStop(M), {Check->getArg(2)});
    B.CreateUnreachable();
    B.SetInsertPoint(Next);
    Value *After = B.CreateAdd(Index, B.getInt64(1));
    Index->addIncoming(After, Next);
    B.CreateCondBr(B.CreateICmpEQ(After, Check->getArg(1)), Done, Loop);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }
  Value *Checked =
      At.CreateSelect(At.CreateIsNull(Memory), At.getInt64(0),
                      At.CreateZExtOrTrunc(Bytes, At.getInt64Ty()));
  At.CreateCall(Check, {Memory, Checked, Message});
}

} // namespace slope
