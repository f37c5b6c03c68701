//===- TapeCache.cpp ------------------------------------------------------===//
#include "TapeCache.h"
#include "LibC.h"
#include "Tape.h"
#include "Target.h"
#include "ThreadState.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace slope {

namespace {

/// Larger buffers are freed: a thread should not hold more than this
/// after its gradients return.
constexpr uint64_t MaxKeptBytes = uint64_t(256) << 20;

const char *const KeptName = "slope.tape.kept";
const char *const TakeName = "slope.tape.take";
const char *const ReleaseName = "slope.tape.release";

/// { ptr base, i64 capacity, i1 registered }, one per thread and shared by
/// every module of a program (linkonce_odr).
GlobalVariable *keptTape(Module &M) {
  LLVMContext &Ctx = M.getContext();
  return perThreadGlobal(
      M, KeptName,
      StructType::get(Ctx, {PointerType::getUnqual(Ctx), Type::getInt64Ty(Ctx),
                            Type::getInt1Ty(Ctx)}));
}

/// This thread's instance of the kept buffer's fields.
struct KeptFields {
  Value *Base, *Capacity, *Registered;
};

KeptFields keptFields(IRBuilderBase &B) {
  GlobalVariable *Kept = keptTape(*B.GetInsertBlock()->getModule());
  Value *Address = B.CreateIntrinsic(Intrinsic::threadlocal_address,
                                     {Kept->getType()}, {Kept});
  Type *Ty = Kept->getValueType();
  return {B.CreateStructGEP(Ty, Address, 0), B.CreateStructGEP(Ty, Address, 1),
          B.CreateStructGEP(Ty, Address, 2)};
}

/// slope.tape.drop(ptr): frees the kept buffer (thread exit).
Function *dropFunction(Module &M) {
  if (Function *Existing = M.getFunction("slope.tape.drop"))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Function *Drop =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
                       GlobalValue::InternalLinkage, "slope.tape.drop", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Drop));
  KeptFields Kept = keptFields(B);
  callFree(B, B.CreateLoad(Ptr, Kept.Base));
  B.CreateStore(ConstantPointerNull::get(cast<PointerType>(Ptr)), Kept.Base);
  B.CreateStore(B.getInt64(0), Kept.Capacity);
  B.CreateRetVoid();
  return Drop;
}

/// slope.tape.release(ptr base, i64 capacity): keeps the larger of the
/// kept buffer and this one (within MaxKeptBytes), frees the other; the
/// first buffer a thread keeps registers slope.tape.drop for its exit.
Function *releaseFunction(Module &M) {
  if (Function *Existing = M.getFunction(ReleaseName))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  Function *Release = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, I64}, false),
      GlobalValue::InternalLinkage, ReleaseName, M);
  Release->addFnAttr(Attribute::NoInline);
  Value *Base = Release->getArg(0), *Capacity = Release->getArg(1);
  auto *Entry = BasicBlock::Create(Ctx, "entry", Release);
  auto *Keep = BasicBlock::Create(Ctx, "keep", Release);
  auto *Register = BasicBlock::Create(Ctx, "register", Release);
  auto *FreeThis = BasicBlock::Create(Ctx, "free", Release);
  auto *Done = BasicBlock::Create(Ctx, "done", Release);

  IRBuilder<> B(Entry);
  KeptFields Kept = keptFields(B);
  Value *KeptCapacity = B.CreateLoad(I64, Kept.Capacity);
  Value *Better =
      B.CreateAnd(B.CreateICmpUGT(Capacity, KeptCapacity),
                  B.CreateICmpULE(Capacity, B.getInt64(MaxKeptBytes)));
  B.CreateCondBr(Better, Keep, FreeThis);

  B.SetInsertPoint(Keep);
  callFree(B, B.CreateLoad(Ptr, Kept.Base));
  B.CreateStore(Base, Kept.Base);
  B.CreateStore(Capacity, Kept.Capacity);
  Value *Registered = B.CreateLoad(B.getInt1Ty(), Kept.Registered);
  B.CreateCondBr(Registered, Done, Register);

  B.SetInsertPoint(Register);
  B.CreateStore(B.getTrue(), Kept.Registered);
  callAtThreadExit(B, dropFunction(M));
  B.CreateBr(Done);

  B.SetInsertPoint(FreeThis);
  callFree(B, Base);
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return Release;
}

/// {ptr base, i64 capacity} slope.tape.take(): the thread's kept buffer
/// (null and 0 when none), which it no longer keeps. A call, not inline
/// code, so that forgetKeptTape can find it in a derivative differentiated
/// again; the optimizer inlines it later.
Function *takeFunction(Module &M) {
  if (Function *Existing = M.getFunction(TakeName))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  StructType *Result = StructType::get(Ctx, {Ptr, Type::getInt64Ty(Ctx)});
  Function *Take = Function::Create(FunctionType::get(Result, false),
                                    GlobalValue::InternalLinkage, TakeName, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Take));
  KeptFields Kept = keptFields(B);
  Value *R = B.CreateInsertValue(PoisonValue::get(Result),
                                 B.CreateLoad(Ptr, Kept.Base), 0);
  R = B.CreateInsertValue(R, B.CreateLoad(B.getInt64Ty(), Kept.Capacity), 1);
  B.CreateStore(ConstantPointerNull::get(cast<PointerType>(Ptr)), Kept.Base);
  B.CreateStore(B.getInt64(0), Kept.Capacity);
  B.CreateRet(R);
  return Take;
}

} // namespace

bool keepsTapeBetweenCalls(const Module &M) {
  return targetFacts(M).RunsCodeAtThreadExit;
}

void emitTakeKeptTape(IRBuilderBase &B, Value *Base, Value *Capacity) {
  Value *Taken = B.CreateCall(takeFunction(*B.GetInsertBlock()->getModule()));
  B.CreateStore(B.CreateExtractValue(Taken, 0), Base);
  B.CreateStore(B.CreateExtractValue(Taken, 1), Capacity);
}

void emitReleaseTape(IRBuilderBase &B, Value *Base, Value *Capacity) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(releaseFunction(M), {Base, Capacity});
}

bool isKeptTapeHelper(const Function &F) {
  return F.getName() == TakeName || F.getName() == ReleaseName;
}

/// The capacity the last tape of a gradient inside \p F reached on this
/// thread: the next one starts that large. A size, not a buffer, so that
/// nothing outside the function needs a shadow; the C library then serves
/// the same block again without fresh pages. One per function: a small
/// gradient elsewhere does not take a large one's size.
static GlobalVariable *nestedTapeHint(Function &F) {
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(M.getContext());
  return new GlobalVariable(
      M, I64, false, GlobalValue::InternalLinkage, ConstantInt::get(I64, 0),
      F.getName() + ".tape.hint", nullptr, GlobalValue::GeneralDynamicTLSModel);
}

void forgetKeptTape(Function &F) {
  Module &M = *F.getParent();
  // The tape's growth helpers are small: inlined whatever the inlining
  // budget left, so that forward mode sees the reallocations themselves.
  for (bool Inlined = true; Inlined;) {
    Inlined = false;
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() &&
            (Callee->getName() == "slope.tape.grow" ||
             Callee->getName() == "slope.tape.ensure")) {
          InlineFunctionInfo Info;
          Inlined |= InlineFunction(*Call, Info).isSuccess();
          break; // the instruction list changed
        }
  }
  GlobalVariable *Hint = nullptr;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !isKeptTapeHelper(*Callee))
      continue;
    if (!Hint)
      Hint = nestedTapeHint(F);
    IRBuilder<> B(Call);
    Value *HintAddress = B.CreateIntrinsic(Intrinsic::threadlocal_address,
                                           {Hint->getType()}, {Hint});
    if (Callee->getName() == TakeName) {
      // A tape of the hinted size (with the mark that lets forward mode
      // leave its shadow unzeroed), grown like any.
      Value *Bytes = B.CreateLoad(B.getInt64Ty(), HintAddress);
      auto *Base = cast<CallInst>(callMalloc(B, Bytes));
      Base->setMetadata(TapeGrowthMetadata, MDNode::get(M.getContext(), {}));
      Value *Capacity =
          B.CreateSelect(B.CreateIsNull(Base), B.getInt64(0), Bytes);
      Value *Taken =
          B.CreateInsertValue(PoisonValue::get(Call->getType()), Base, 0);
      Call->replaceAllUsesWith(B.CreateInsertValue(Taken, Capacity, 1));
    } else {
      B.CreateStore(Call->getArgOperand(1), HintAddress);
      callFree(B, Call->getArgOperand(0));
    }
    Call->eraseFromParent();
  }
}

} // namespace slope
