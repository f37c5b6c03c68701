//===- ShadowCache.cpp ----------------------------------------------------===//
#include "ShadowCache.h"
#include "LibC.h"
#include "Target.h"
#include "ThreadState.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

namespace {

constexpr unsigned MaxBlocks = 16;
/// What one thread may hold in kept blocks after its gradients return.
constexpr uint64_t MaxBytes = uint64_t(64) << 20;
/// A kept block serves a request of at least half its size (plus a little
/// for small ones): no large block is tied up by a small shadow.
constexpr uint64_t Slack = 256;

const char *const CacheName = "slope.shadow.cache";

/// { [MaxBlocks x ptr] blocks, [MaxBlocks x i64] capacities, i64 bytes,
///   i1 registered }, one per thread and shared by every module of a
/// program (linkonce_odr).
GlobalVariable *cache(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  return perThreadGlobal(
      M, CacheName,
      StructType::get(
          Ctx, {ArrayType::get(PointerType::getUnqual(Ctx), MaxBlocks),
                ArrayType::get(I64, MaxBlocks), I64, Type::getInt1Ty(Ctx)}));
}

/// This thread's cache: the addresses of its fields (of slot \p Index for
/// the two arrays).
struct CacheFields {
  IRBuilderBase &B;
  Type *Ty;
  Value *Address;
  explicit CacheFields(IRBuilderBase &B) : B(B) {
    GlobalVariable *G = cache(*B.GetInsertBlock()->getModule());
    Ty = G->getValueType();
    Address =
        B.CreateIntrinsic(Intrinsic::threadlocal_address, {G->getType()}, {G});
  }
  Value *block(Value *Index) {
    return B.CreateInBoundsGEP(Ty, Address,
                               {B.getInt32(0), B.getInt32(0), Index});
  }
  Value *capacity(Value *Index) {
    return B.CreateInBoundsGEP(Ty, Address,
                               {B.getInt32(0), B.getInt32(1), Index});
  }
  Value *bytes() { return B.CreateStructGEP(Ty, Address, 2); }
  Value *registered() { return B.CreateStructGEP(Ty, Address, 3); }
};

Function *create(Module &M, StringRef Name, Type *Ret,
                 ArrayRef<Type *> Params) {
  return Function::Create(FunctionType::get(Ret, Params, false),
                          GlobalValue::InternalLinkage, Name, M);
}

/// slope.shadow.cache.drop(ptr): frees the kept blocks (thread exit).
Function *dropFunction(Module &M) {
  if (Function *Existing = M.getFunction("slope.shadow.cache.drop"))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Function *Drop =
      create(M, "slope.shadow.cache.drop", Type::getVoidTy(Ctx), {Ptr});
  auto *Entry = BasicBlock::Create(Ctx, "entry", Drop);
  auto *Loop = BasicBlock::Create(Ctx, "loop", Drop);
  auto *Done = BasicBlock::Create(Ctx, "done", Drop);
  IRBuilder<> B(Entry);
  CacheFields Cache(B);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *Slot = Cache.block(I);
  callFree(B, B.CreateLoad(Ptr, Slot));
  B.CreateStore(Constant::getNullValue(Ptr), Slot);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(Next, B.getInt64(MaxBlocks)), Done, Loop);
  B.SetInsertPoint(Done);
  B.CreateStore(B.getInt64(0), Cache.bytes());
  B.CreateRetVoid();
  return Drop;
}

/// slope.shadow.cache.take(i64 bytes): a kept block that fits, or null.
Function *takeFunction(Module &M) {
  if (Function *Existing = M.getFunction("slope.shadow.cache.take"))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *Take = create(M, "slope.shadow.cache.take", Ptr, {I64});
  Value *Bytes = Take->getArg(0);
  auto *Entry = BasicBlock::Create(Ctx, "entry", Take);
  auto *Loop = BasicBlock::Create(Ctx, "loop", Take);
  auto *Next = BasicBlock::Create(Ctx, "next", Take);
  auto *Found = BasicBlock::Create(Ctx, "found", Take);
  auto *None = BasicBlock::Create(Ctx, "none", Take);
  IRBuilder<> B(Entry);
  CacheFields Cache(B);
  // Fits: bytes <= capacity <= 2 * bytes + Slack (an empty slot's
  // capacity is 0).
  Value *Most = B.CreateAdd(B.CreateShl(Bytes, 1), B.getInt64(Slack));
  B.CreateBr(Loop);

  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *CapacityAt = Cache.capacity(I);
  Value *Capacity = B.CreateLoad(I64, CapacityAt);
  Value *Fits = B.CreateAnd(B.CreateICmpUGE(Capacity, Bytes),
                            B.CreateICmpULE(Capacity, Most));
  B.CreateCondBr(B.CreateAnd(Fits, B.CreateICmpNE(Capacity, B.getInt64(0))),
                 Found, Next);

  B.SetInsertPoint(Next);
  Value *After = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpEQ(After, B.getInt64(MaxBlocks)), None, Loop);

  B.SetInsertPoint(Found);
  Value *Slot = Cache.block(I);
  Value *Block = B.CreateLoad(Ptr, Slot);
  B.CreateStore(Constant::getNullValue(Ptr), Slot);
  B.CreateStore(B.getInt64(0), CapacityAt);
  Value *Held = Cache.bytes();
  B.CreateStore(B.CreateSub(B.CreateLoad(I64, Held), Capacity), Held);
  B.CreateRet(Block);

  B.SetInsertPoint(None);
  B.CreateRet(Constant::getNullValue(Ptr));
  return Take;
}

/// slope.shadow.cache.keep(ptr base): i1 whether the block is now kept.
/// The first block a thread keeps registers the drop for its exit.
Function *keepFunction(Module &M) {
  if (Function *Existing = M.getFunction("slope.shadow.cache.keep"))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Function *Keep =
      create(M, "slope.shadow.cache.keep", Type::getInt1Ty(Ctx), {Ptr});
  Value *Base = Keep->getArg(0);
  auto *Entry = BasicBlock::Create(Ctx, "entry", Keep);
  auto *Loop = BasicBlock::Create(Ctx, "loop", Keep);
  auto *Next = BasicBlock::Create(Ctx, "next", Keep);
  auto *Store = BasicBlock::Create(Ctx, "store", Keep);
  auto *Register = BasicBlock::Create(Ctx, "register", Keep);
  auto *Kept = BasicBlock::Create(Ctx, "kept", Keep);
  auto *Refuse = BasicBlock::Create(Ctx, "refuse", Keep);
  IRBuilder<> B(Entry);
  CacheFields Cache(B);
  Value *Capacity =
      B.CreateCall(M.getOrInsertFunction("malloc_usable_size",
                                         FunctionType::get(I64, {Ptr}, false)),
                   {Base});
  Value *Held = B.CreateLoad(I64, Cache.bytes());
  Value *Room = B.CreateICmpULE(Capacity, B.getInt64(MaxBytes));
  Room = B.CreateAnd(
      Room, B.CreateICmpULE(B.CreateAdd(Held, Capacity), B.getInt64(MaxBytes)));
  B.CreateCondBr(Room, Loop, Refuse);

  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *Slot = Cache.block(I);
  B.CreateCondBr(B.CreateIsNull(B.CreateLoad(Ptr, Slot)), Store, Next);

  B.SetInsertPoint(Next);
  Value *After = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpEQ(After, B.getInt64(MaxBlocks)), Refuse, Loop);

  B.SetInsertPoint(Store);
  B.CreateStore(Base, Slot);
  B.CreateStore(Capacity, Cache.capacity(I));
  B.CreateStore(B.CreateAdd(Held, Capacity), Cache.bytes());
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Cache.registered()), Kept,
                 Register);

  B.SetInsertPoint(Register);
  B.CreateStore(B.getTrue(), Cache.registered());
  callAtThreadExit(B, dropFunction(M));
  B.CreateBr(Kept);

  B.SetInsertPoint(Kept);
  B.CreateRet(B.getTrue());
  B.SetInsertPoint(Refuse);
  B.CreateRet(B.getFalse());
  return Keep;
}

} // namespace

bool cachesShadows(const Module &M) {
  return targetFacts(M).RunsCodeAtThreadExit;
}

Value *takeCachedBlock(IRBuilderBase &B, Value *Bytes) {
  return B.CreateCall(takeFunction(*B.GetInsertBlock()->getModule()), {Bytes});
}

Value *keepBlock(IRBuilderBase &B, Value *Base) {
  return B.CreateCall(keepFunction(*B.GetInsertBlock()->getModule()), {Base});
}

} // namespace slope
