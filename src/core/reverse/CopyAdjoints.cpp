//===- CopyAdjoints.cpp ---------------------------------------------------===//
#include "CopyAdjoints.h"
#include "LibC.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

ByteLayout elementArrayLayout(Type *Element) {
  ByteLayout Layout;
  Layout.Stride = Element->getPrimitiveSizeInBits() / 8;
  Layout.Floats.push_back({0, Element});
  return Layout;
}

namespace {

/// Calls \p Body(B, byte offset) for each record's field at \p Offset of
/// \p Size bytes that lies wholly in the first \p Bytes.
template <class BodyT>
void forEachField(IRBuilderBase &B, uint64_t Stride, uint64_t Offset,
                  uint64_t Size, Value *Bytes, BodyT Body) {
  LLVMContext &Ctx = B.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Before = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "field", F);
  BasicBlock *After = BasicBlock::Create(Ctx, "fields.done", F);
  // Records whose field fits: (bytes - offset - size) / stride + 1.
  Value *End = B.getInt64(Offset + Size);
  Value *Fits = B.CreateICmpUGE(Bytes, End);
  Value *Count = B.CreateAdd(
      B.CreateUDiv(B.CreateSub(Bytes, End), B.getInt64(Stride)), B.getInt64(1));
  B.CreateCondBr(Fits, Loop, After);
  B.SetInsertPoint(Loop);
  PHINode *Index = B.CreatePHI(B.getInt64Ty(), 2);
  Index->addIncoming(B.getInt64(0), Before);
  Body(B,
       B.CreateAdd(B.CreateMul(Index, B.getInt64(Stride)), B.getInt64(Offset)));
  Value *Next = B.CreateAdd(Index, B.getInt64(1));
  Index->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(Next, Count), After, Loop);
  B.SetInsertPoint(After);
}

std::string helperName(const ByteLayout &Layout, bool Overlap) {
  std::string Name = Overlap ? "slope.move.adjoint." : "slope.copy.adjoint.";
  // Arrays of one type keep their short name: <bits>.
  if (Layout.Floats.size() == 1 && Layout.Floats[0].first == 0 &&
      Layout.Floats[0].second->getPrimitiveSizeInBits() == 8 * Layout.Stride)
    return Name + std::to_string(8 * Layout.Stride);
  return Name + Layout.key();
}

/// Packed records may place a field off its natural alignment.
Align fieldAlign(const ByteLayout &Layout, uint64_t Offset, uint64_t Size) {
  return Offset % Size == 0 && Layout.Stride % Size == 0 ? Align(Size)
                                                         : Align(1);
}

/// Emits stores of zero to every floating-point field in the first \p Bytes
/// of \p Memory.
void zeroFields(IRBuilderBase &B, const ByteLayout &Layout, Value *Memory,
                Value *Bytes) {
  for (const auto &Field : Layout.Floats) {
    uint64_t Offset = Field.first,
             Size = Field.second->getPrimitiveSizeInBits() / 8;
    Type *Ty = Field.second;
    forEachField(B, Layout.Stride, Offset, Size, Bytes,
                 [&](IRBuilderBase &B, Value *At) {
                   B.CreateAlignedStore(Constant::getNullValue(Ty),
                                        B.CreateGEP(B.getInt8Ty(), Memory, At),
                                        fieldAlign(Layout, Offset, Size));
                 });
  }
}

} // namespace

Function *zeroAdjointsFunction(Module &M, const ByteLayout &Layout) {
  std::string Name = "slope.zero.adjoints." + Layout.key();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Function *Helper = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PointerType::getUnqual(Ctx), Type::getInt64Ty(Ctx)},
                        false),
      GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Helper));
  zeroFields(B, Layout, Helper->getArg(0), Helper->getArg(1));
  B.CreateRetVoid();
  return Helper;
}

Function *transferAdjointFunction(Module &M, const ByteLayout &Layout,
                                  bool Overlap) {
  std::string Name = helperName(Layout, Overlap);
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
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Helper));
  Value *From = Dest;
  if (Overlap) {
    // Take the destination's adjoints first: the source may overlap it.
    From = callMalloc(B, Bytes);
    B.CreateMemCpy(From, MaybeAlign(), Dest, MaybeAlign(), Bytes);
  }
  if (Overlap)
    zeroFields(B, Layout, Dest, Bytes);
  for (const auto &Field : Layout.Floats) {
    Type *Ty = Field.second;
    uint64_t Offset = Field.first, Size = Ty->getPrimitiveSizeInBits() / 8;
    Align A = fieldAlign(Layout, Offset, Size);
    forEachField(
        B, Layout.Stride, Offset, Size, Bytes,
        [&](IRBuilderBase &B, Value *At) {
          Value *FromAt = B.CreateGEP(B.getInt8Ty(), From, At);
          Value *Adjoint = B.CreateAlignedLoad(Ty, FromAt, A);
          if (!Overlap)
            B.CreateAlignedStore(Constant::getNullValue(Ty), FromAt, A);
          Value *ToAt = B.CreateGEP(B.getInt8Ty(), Source, At);
          B.CreateAlignedStore(
              B.CreateFAdd(B.CreateAlignedLoad(Ty, ToAt, A), Adjoint), ToAt, A);
        });
  }
  if (Overlap)
    callFree(B, From);
  B.CreateRetVoid();
  return Helper;
}

} // namespace slope
