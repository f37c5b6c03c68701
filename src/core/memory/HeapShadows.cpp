//===- HeapShadows.cpp ----------------------------------------------------===//
#include "HeapShadows.h"
#include "CopyAdjoints.h"
#include "LibC.h"
#include "ShadowCache.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

constexpr uint64_t HeaderBytes = 16;

Module &moduleOf(IRBuilderBase &B) { return *B.GetInsertBlock()->getModule(); }

FunctionCallee libc(Module &M, StringRef Name, Type *Ret,
                    ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
}

/// Marks \p F as an allocator: what it returns is storage apart from every
/// object its caller can reach (a fresh or a cached block, which nothing
/// points into once freed), so alias analysis tells shadows apart from the
/// derivative's arguments and from each other. Not inlined, so that the
/// calls keep saying so.
Function *allocator(Function *F) {
  F->addRetAttr(Attribute::NoAlias);
  F->addFnAttr(Attribute::NoInline);
  return F;
}

/// Returns the helper \p Name, creating it with \p Build when missing.
Function *helper(Module &M, StringRef Name, FunctionType *Type,
                 function_ref<void(Function &, IRBuilder<> &)> Build) {
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  Function *F = Function::Create(Type, GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  Build(*F, B);
  return F;
}

Value *headerOf(IRBuilderBase &B, Value *Shadow) {
  return B.CreateConstGEP1_64(B.getInt8Ty(), Shadow, -int64_t(HeaderBytes));
}

/// Writes the header in front of \p Data: its size and the address to
/// free.
void writeHeader(IRBuilderBase &B, Value *Data, Value *Bytes, Value *Base) {
  B.CreateStore(Bytes, headerOf(B, Data));
  B.CreateStore(Base, B.CreateConstGEP1_64(B.getInt8Ty(), Data, -8));
}

/// slope.shadow.alloc(bytes): calloc'd header + data; returns the data.
/// slope.shadow.alloc.unzeroed: malloc'd, for memory whose every element
/// is written before it is read (a tape).
Function *allocFunction(Module &M, bool Zeroed = true) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  return allocator(helper(
      M, Zeroed ? "slope.shadow.alloc" : "slope.shadow.alloc.unzeroed",
      FunctionType::get(Ptr, {I64}, false), [&](Function &F, IRBuilder<> &B) {
        Value *Bytes = F.getArg(0);
        Value *Total = B.CreateAdd(Bytes, B.getInt64(HeaderBytes));
        auto Fresh = [&] {
          return Zeroed ? B.CreateCall(libc(M, "calloc", Ptr, {I64, I64}),
                                       {B.getInt64(1), Total})
                        : B.CreateCall(libc(M, "malloc", Ptr, {I64}), {Total});
        };
        Value *Base;
        if (cachesShadows(M)) {
          // A block a shadow freed earlier on this thread, zeroed again.
          LLVMContext &Ctx = M.getContext();
          auto *Reuse = BasicBlock::Create(Ctx, "reuse", &F);
          auto *Allocate = BasicBlock::Create(Ctx, "allocate", &F);
          auto *Header = BasicBlock::Create(Ctx, "header", &F);
          Value *Kept = takeCachedBlock(B, Total);
          B.CreateCondBr(B.CreateIsNull(Kept), Allocate, Reuse);
          B.SetInsertPoint(Reuse);
          if (Zeroed)
            B.CreateMemSet(Kept, B.getInt8(0), Total, MaybeAlign(16));
          B.CreateBr(Header);
          B.SetInsertPoint(Allocate);
          Value *New = Fresh();
          B.CreateBr(Header);
          B.SetInsertPoint(Header);
          PHINode *Phi = B.CreatePHI(Ptr, 2);
          Phi->addIncoming(Kept, Reuse);
          Phi->addIncoming(New, Allocate);
          Base = Phi;
        } else {
          Base = Fresh();
        }
        Value *Data = B.CreateConstGEP1_64(B.getInt8Ty(), Base, HeaderBytes);
        writeHeader(B, Data, Bytes, Base);
        B.CreateRet(Data);
      }));
}

/// slope.shadow.alloc.aligned(bytes, alignment): the data starts one
/// alignment (at least the header) into an aligned_alloc'd block, zeroed.
Function *alignedAllocFunction(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  return allocator(helper(
      M, "slope.shadow.alloc.aligned",
      FunctionType::get(Ptr, {I64, I64}, false),
      [&](Function &F, IRBuilder<> &B) {
        Value *Bytes = F.getArg(0);
        Value *Align = B.CreateBinaryIntrinsic(Intrinsic::umax, F.getArg(1),
                                               B.getInt64(HeaderBytes));
        // One alignment in front for the header, the rest for the
        // data.
        Value *Base = callAlignedAlloc(B, Align, B.CreateAdd(Bytes, Align));
        Value *Data = B.CreateGEP(B.getInt8Ty(), Base, Align);
        B.CreateMemSet(Data, B.getInt8(0), Bytes, MaybeAlign());
        writeHeader(B, Data, Bytes, Base);
        B.CreateRet(Data);
      }));
}

/// slope.shadow.free(shadow): frees header and data; null is fine.
Function *freeFunction(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  return helper(
      M, "slope.shadow.free",
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false),
      [&](Function &F, IRBuilder<> &B) {
        BasicBlock *Release = BasicBlock::Create(Ctx, "release", &F);
        BasicBlock *Done = BasicBlock::Create(Ctx, "done", &F);
        B.CreateCondBr(B.CreateIsNull(F.getArg(0)), Done, Release);
        B.SetInsertPoint(Release);
        Value *Base = B.CreateLoad(
            Ptr, B.CreateConstGEP1_64(B.getInt8Ty(), F.getArg(0), -8));
        BasicBlock *Free = BasicBlock::Create(Ctx, "free", &F);
        if (cachesShadows(M)) {
          // Blocks of calloc'd shadows (the header right before the data)
          // are kept for the next shadows if there is room.
          BasicBlock *Keep = BasicBlock::Create(Ctx, "keep", &F);
          B.CreateCondBr(B.CreateICmpEQ(Base, headerOf(B, F.getArg(0))), Keep,
                         Free);
          B.SetInsertPoint(Keep);
          B.CreateCondBr(keepBlock(B, Base), Done, Free);
        } else {
          B.CreateBr(Free);
        }
        B.SetInsertPoint(Free);
        B.CreateCall(libc(M, "free", Type::getVoidTy(Ctx), {Ptr}), {Base});
        B.CreateBr(Done);
        B.SetInsertPoint(Done);
        B.CreateRetVoid();
      });
}

/// The size recorded in the header of a non-null shadow.
Value *sizeOf(IRBuilderBase &B, Value *Shadow) {
  return B.CreateLoad(B.getInt64Ty(), headerOf(B, Shadow));
}

} // namespace

Value *allocateHeapShadow(IRBuilderBase &B, Value *Bytes, Value *Alignment,
                          bool Zeroed) {
  Value *Size = B.CreateZExtOrTrunc(Bytes, B.getInt64Ty());
  if (!Alignment)
    return B.CreateCall(allocFunction(moduleOf(B), Zeroed), {Size});
  return B.CreateCall(alignedAllocFunction(moduleOf(B)),
                      {Size, B.CreateZExtOrTrunc(Alignment, B.getInt64Ty())});
}

void freeHeapShadow(IRBuilderBase &B, Value *Shadow) {
  B.CreateCall(freeFunction(moduleOf(B)), {Shadow});
}

Value *reallocateHeapShadow(IRBuilderBase &B, Value *Old, Value *Bytes,
                            bool ReleaseOld, bool Zeroed) {
  Module &M = moduleOf(B);
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  std::string Name =
      ReleaseOld ? "slope.shadow.realloc.release" : "slope.shadow.realloc";
  if (!Zeroed)
    Name += ".unzeroed";
  Function *Realloc = helper(
      M, Name, FunctionType::get(Ptr, {Ptr, I64}, false),
      [&](Function &F, IRBuilder<> &H) {
        Value *OldShadow = F.getArg(0), *NewBytes = F.getArg(1);
        Value *New = H.CreateCall(allocFunction(M, Zeroed), {NewBytes});
        BasicBlock *Copy = BasicBlock::Create(Ctx, "copy", &F);
        BasicBlock *Done = BasicBlock::Create(Ctx, "done", &F);
        H.CreateCondBr(H.CreateIsNull(OldShadow), Done, Copy);
        H.SetInsertPoint(Copy);
        Value *Common = H.CreateBinaryIntrinsic(Intrinsic::umin,
                                                sizeOf(H, OldShadow), NewBytes);
        H.CreateMemCpy(New, MaybeAlign(), OldShadow, MaybeAlign(), Common);
        if (ReleaseOld)
          H.CreateCall(freeFunction(M), {OldShadow});
        H.CreateBr(Done);
        H.SetInsertPoint(Done);
        H.CreateRet(New);
      });
  return B.CreateCall(Realloc,
                      {Old, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty())});
}

void returnReallocatedAdjoints(IRBuilderBase &B, Value *Old, Value *New,
                               Type *Element) {
  Module &M = moduleOf(B);
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  std::string Name = "slope.shadow.realloc.adjoint." +
                     std::to_string(Element->getPrimitiveSizeInBits());
  Function *Adjoint = helper(
      M, Name, FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false),
      [&](Function &F, IRBuilder<> &H) {
        Value *OldShadow = F.getArg(0), *NewShadow = F.getArg(1);
        BasicBlock *Prepare = BasicBlock::Create(Ctx, "prepare", &F);
        BasicBlock *Done = BasicBlock::Create(Ctx, "done", &F);
        H.CreateCondBr(H.CreateIsNull(OldShadow), Done, Prepare);
        H.SetInsertPoint(Prepare);
        Value *Common = H.CreateBinaryIntrinsic(
            Intrinsic::umin, sizeOf(H, OldShadow), sizeOf(H, NewShadow));
        // Old += New over the common prefix, as the reverse of a copy.
        H.CreateCall(transferAdjointFunction(M, elementArrayLayout(Element),
                                             /*Overlap=*/false),
                     {NewShadow, OldShadow, Common});
        H.CreateBr(Done);
        H.SetInsertPoint(Done);
        H.CreateCall(freeFunction(M), {NewShadow});
        H.CreateRetVoid();
      });
  B.CreateCall(Adjoint, {Old, New});
}

} // namespace slope
