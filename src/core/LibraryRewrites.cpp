//===- LibraryRewrites.cpp ------------------------------------------------===//
#include "LibraryRewrites.h"
#include "KnownInactive.h"
#include "LibC.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

void markInactive(CallInst &Call) {
  Call.setMetadata(InactiveCallMetadata, MDNode::get(Call.getContext(), {}));
}

/// x·2^-e, which is exactly the mantissa frexp(x) returns (zero,
/// infinities and NaN included).
Value *scaleDown(IRBuilderBase &B, Value *X, Value *E) {
  return B.CreateIntrinsic(Intrinsic::ldexp, {X->getType(), E->getType()},
                           {X, B.CreateNeg(E)});
}

/// m = frexp(x, &e) (the libm call or LLVM's intrinsic): the call stays
/// for e alone and is marked inactive; m = ldexp(x, -e).
void rewriteFrexp(CallInst &Call) {
  IRBuilder<> B(Call.getNextNode());
  Value *X = Call.getArgOperand(0);
  if (Call.getType()->isStructTy()) { // llvm.frexp: {mantissa, exponent}
    Value *Mantissa = scaleDown(B, X, B.CreateExtractValue(&Call, 1));
    for (User *U : make_early_inc_range(Call.users()))
      if (auto *Extract = dyn_cast<ExtractValueInst>(U))
        if (Extract->getIndices()[0] == 0) {
          Extract->replaceAllUsesWith(Mantissa);
          Extract->eraseFromParent();
        }
  } else {
    Value *E = B.CreateLoad(B.getInt32Ty(), Call.getArgOperand(1));
    Call.replaceAllUsesWith(scaleDown(B, X, E));
  }
  markInactive(Call);
}

/// f = modf(x, &i): i = trunc(x) and f = copysign(x - i, x) (exact), 0
/// with x's sign for infinite x.
void rewriteModf(CallInst &Call) {
  IRBuilder<> B(&Call);
  Value *X = Call.getArgOperand(0);
  Value *Whole = B.CreateUnaryIntrinsic(Intrinsic::trunc, X);
  B.CreateStore(Whole, Call.getArgOperand(1));
  Value *Infinite = B.CreateFCmpOEQ(B.CreateUnaryIntrinsic(Intrinsic::fabs, X),
                                    ConstantFP::getInfinity(X->getType()));
  Value *Fraction = B.CreateSelect(Infinite, ConstantFP::get(X->getType(), 0),
                                   B.CreateFSub(X, Whole));
  Value *Signed = B.CreateBinaryIntrinsic(Intrinsic::copysign, Fraction, X,
                                          nullptr, Call.getName());
  Call.replaceAllUsesWith(Signed);
  Call.eraseFromParent();
}

/// r = posix_memalign(&p, a, n): an aligned_alloc Slope mirrors.
void rewritePosixMemalign(CallInst &Call) {
  IRBuilder<> B(&Call);
  Value *Block = callAlignedAlloc(B, Call.getArgOperand(1),
                                  Call.getArgOperand(2), "aligned");
  B.CreateStore(Block, Call.getArgOperand(0));
  constexpr int NoMemory = 12; // ENOMEM
  Value *Result = B.CreateSelect(B.CreateIsNull(Block),
                                 ConstantInt::get(Call.getType(), NoMemory),
                                 ConstantInt::get(Call.getType(), 0));
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// The operation of a complex runtime function returning both parts
/// ({double, double}) from double operands, or "".
StringRef complexOperation(const Function &Callee) {
  StringRef Op = StringSwitch<StringRef>(Callee.getName())
                     .Case("__muldc3", "mul")
                     .Case("__divdc3", "div")
                     .Case("cexp", "exp")
                     .Case("clog", "log")
                     .Case("csqrt", "sqrt")
                     .Default("");
  auto *Result = dyn_cast<StructType>(Callee.getReturnType());
  Type *Double = Type::getDoubleTy(Callee.getContext());
  if (Op.empty() || !Callee.isDeclaration() || !Result ||
      Result->getNumElements() != 2 || Result->getElementType(0) != Double ||
      Result->getElementType(1) != Double ||
      Callee.arg_size() != (Op == "mul" || Op == "div" ? 4u : 2u) ||
      any_of(Callee.args(),
             [&](const Argument &A) { return A.getType() != Double; }))
    return "";
  return Op;
}

/// slope.complex.<Op>.<re|im>: calls \p Callee and returns one part; a
/// rule in ComplexRules.cpp differentiates it.
Function *complexPart(Function &Callee, StringRef Op, unsigned Part) {
  Module &M = *Callee.getParent();
  std::string Name =
      ("slope.complex." + Op + (Part == 0 ? ".re" : ".im")).str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  Type *Double = Type::getDoubleTy(M.getContext());
  SmallVector<Type *, 4> Params(Callee.arg_size(), Double);
  Function *Helper = Function::Create(FunctionType::get(Double, Params, false),
                                      GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Helper));
  SmallVector<Value *, 4> Args;
  for (Argument &A : Helper->args())
    Args.push_back(&A);
  B.CreateRet(B.CreateExtractValue(B.CreateCall(&Callee, Args), Part));
  return Helper;
}

/// w = f(z...) returning both parts: two calls of the parts' helpers.
void splitComplexCall(CallInst &Call, StringRef Op) {
  IRBuilder<> B(&Call);
  SmallVector<Value *, 4> Args(Call.args());
  Function &Callee = *Call.getCalledFunction();
  Value *Whole = PoisonValue::get(Call.getType());
  for (unsigned Part = 0; Part < 2; ++Part)
    Whole = B.CreateInsertValue(
        Whole, B.CreateCall(complexPart(Callee, Op, Part), Args), Part);
  Whole->takeName(&Call);
  Call.replaceAllUsesWith(Whole);
  Call.eraseFromParent();
}

/// cabs(z) is hypot(re, im) and carg(z) is atan2(im, re), exactly (glibc
/// computes them so): calls of functions with rules.
void rewriteAbsArg(CallInst &Call, bool Arg) {
  IRBuilder<> B(&Call);
  Module &M = *Call.getModule();
  Type *Double = B.getDoubleTy();
  FunctionCallee Real =
      M.getOrInsertFunction(Arg ? "atan2" : "hypot",
                            FunctionType::get(Double, {Double, Double}, false));
  Value *Re = Call.getArgOperand(0), *Im = Call.getArgOperand(1);
  Value *Result = B.CreateCall(Real, Arg ? ArrayRef<Value *>{Im, Re}
                                         : ArrayRef<Value *>{Re, Im});
  Result->takeName(&Call);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

bool isComplexModulusOrArgument(const Function &Callee, bool &Arg) {
  StringRef Name = Callee.getName();
  Type *Double = Type::getDoubleTy(Callee.getContext());
  if ((Name != "cabs" && Name != "carg") || !Callee.isDeclaration() ||
      Callee.getReturnType() != Double || Callee.arg_size() != 2 ||
      Callee.getArg(0)->getType() != Double ||
      Callee.getArg(1)->getType() != Double)
    return false;
  Arg = Name == "carg";
  return true;
}

} // namespace

bool rewriteComplexCalls(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Call->getCalledFunction())
          Calls.push_back(Call);
  bool Changed = false;
  for (CallInst *Call : Calls) {
    Function &Callee = *Call->getCalledFunction();
    bool Arg;
    if (StringRef Op = complexOperation(Callee); !Op.empty()) {
      splitComplexCall(*Call, Op);
      Changed = true;
    } else if (isComplexModulusOrArgument(Callee, Arg)) {
      rewriteAbsArg(*Call, Arg);
      Changed = true;
    }
  }
  return Changed;
}

bool rewriteLibraryCalls(Function &F, const TargetLibraryInfo &TLI) {
  SmallVector<std::pair<CallInst *, LibFunc>, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction()) {
          LibFunc Func;
          if (Callee->getIntrinsicID() == Intrinsic::frexp)
            Calls.push_back({Call, LibFunc_frexp});
          else if (TLI.getLibFunc(*Callee, Func) &&
                   (Func == LibFunc_frexp || Func == LibFunc_frexpf ||
                    Func == LibFunc_modf || Func == LibFunc_modff ||
                    Func == LibFunc_posix_memalign))
            Calls.push_back({Call, Func});
        }
  bool Complex = rewriteComplexCalls(F);
  for (auto [Call, Func] : Calls) {
    if (Func == LibFunc_frexp || Func == LibFunc_frexpf)
      rewriteFrexp(*Call);
    else if (Func == LibFunc_modf || Func == LibFunc_modff)
      rewriteModf(*Call);
    else
      rewritePosixMemalign(*Call);
  }
  return Complex || !Calls.empty();
}

} // namespace slope
