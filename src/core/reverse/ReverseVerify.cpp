//===- ReverseVerify.cpp --------------------------------------------------===//
#include "ReverseVerify.h"
#include "DiffError.h"
#include "KnownInactive.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

static bool VerifyFlag = false;

bool verifyReverseSweeps() { return VerifyFlag; }
void setVerifyReverseSweeps(bool Verify) { VerifyFlag = Verify; }

namespace {

const char *const CheckName = "slope.verify.check";

/// void slope.verify.check(i1 differ, ptr what, double cheap, double taped,
///                         i64 cheap.bits, i64 taped.bits):
/// reports to stderr and aborts when \p differ.
Function *checkFunction(Module &M) {
  if (Function *Existing = M.getFunction(CheckName))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx), *Double = Type::getDoubleTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  auto *Check = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Type::getInt1Ty(Ctx), Ptr, Double, Double, I64, I64},
                        false),
      GlobalValue::InternalLinkage, CheckName, M);
  auto *Entry = BasicBlock::Create(Ctx, "entry", Check);
  auto *Fail = BasicBlock::Create(Ctx, "fail", Check);
  auto *Same = BasicBlock::Create(Ctx, "same", Check);
  IRBuilder<> B(Entry);
  B.CreateCondBr(Check->getArg(0), Fail, Same);
  B.SetInsertPoint(Same);
  B.CreateRetVoid();

  B.SetInsertPoint(Fail);
  FunctionCallee Print = M.getOrInsertFunction(
      "dprintf", FunctionType::get(I32, {I32, Ptr}, /*isVarArg=*/true));
  Value *Format = B.CreateGlobalStringPtr(
      "%s: the reverse sweep has %.17g (bits 0x%llx) where the primal "
      "sweep had %.17g (bits 0x%llx)\n",
      "slope.verify.format");
  B.CreateCall(Print,
               {B.getInt32(2), Format, Check->getArg(1), Check->getArg(2),
                Check->getArg(4), Check->getArg(3), Check->getArg(5)});
  FunctionCallee Abort =
      M.getOrInsertFunction("abort", FunctionType::get(B.getVoidTy(), false));
  B.CreateCall(Abort);
  B.CreateUnreachable();
  Check->addFnAttr(Attribute::Cold);
  return Check;
}

/// \p V as an integer of its width.
Value *asInteger(IRBuilderBase &B, Value *V) {
  Type *Ty = V->getType();
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  if (Ty->isPtrOrPtrVectorTy())
    V = B.CreatePtrToInt(V, DL.getIntPtrType(Ty));
  unsigned Bits = DL.getTypeSizeInBits(V->getType());
  Value *AsInteger = B.CreateBitCast(V, B.getIntNTy(Bits));
  // Only printed: a derivative differentiated again passes nothing here.
  if (auto *Cast = dyn_cast<Instruction>(AsInteger))
    Cast->setMetadata(InactiveCallMetadata, MDNode::get(B.getContext(), {}));
  return AsInteger;
}

/// \p V printed as a number: floating-point scalars as they are, anything
/// else by its low bits.
Value *asDouble(IRBuilderBase &B, Value *V, Value *Bits) {
  if (V->getType()->isFloatingPointTy())
    return B.CreateFPCast(V, B.getDoubleTy());
  return B.CreateSIToFP(B.CreateSExtOrTrunc(Bits, B.getInt64Ty()),
                        B.getDoubleTy());
}

std::string describeSubject(const Instruction &Subject, StringRef How) {
  std::string Text =
      "slope verify: in '" + sourceName(Subject.getFunction()->getName()) + "'";
  if (const DILocation *Loc = Subject.getDebugLoc())
    Text += " at " + Loc->getFilename().str() + ":" +
            std::to_string(Loc->getLine()) + ":" +
            std::to_string(Loc->getColumn());
  std::string Type;
  raw_string_ostream OS(Type);
  Subject.getType()->print(OS);
  return Text + ", a " + Type + " " + How.str();
}

} // namespace

void emitVerifyCheck(IRBuilderBase &B, Value *Cheap, Value *Taped,
                     const Instruction &Subject, StringRef How) {
  Module &M = *B.GetInsertBlock()->getModule();
  Value *CheapBits = asInteger(B, Cheap), *TapedBits = asInteger(B, Taped);
  Value *Differ = B.CreateICmpNE(CheapBits, TapedBits);
  Value *What = B.CreateGlobalStringPtr(describeSubject(Subject, How),
                                        "slope.verify.what");
  B.CreateCall(checkFunction(M),
               {Differ, What, asDouble(B, Cheap, CheapBits),
                asDouble(B, Taped, TapedBits),
                B.CreateZExtOrTrunc(CheapBits, B.getInt64Ty()),
                B.CreateZExtOrTrunc(TapedBits, B.getInt64Ty())});
}

} // namespace slope
