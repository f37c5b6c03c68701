//===- LibraryRewrites.cpp ------------------------------------------------===//
#include "LibraryRewrites.h"
#include "KnownInactive.h"
#include "LibC.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"
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

/// How a complex runtime function passes a complex value: double's as
/// {double, double} results and two double operands; float's (x86-64) as
/// <2 x float>, also for operands, except in __mulsc3/__divsc3.
struct ComplexSignature {
  StringRef Op;   // mul, div, exp, log, sqrt, abs, arg
  Type *Real;     // double or float
  bool Packed;    // float's <2 x float> form
  unsigned Parts; // real operands: 4 for mul and div, else 2
};

std::optional<ComplexSignature> complexSignature(const Function &Callee) {
  if (!Callee.isDeclaration())
    return std::nullopt;
  StringRef Name = Callee.getName();
  bool Float =
      Name == "__mulsc3" || Name == "__divsc3" ||
      (Name.size() > 1 && Name.ends_with("f") && Name.starts_with("c"));
  StringRef Base = Float && Name.starts_with("c") ? Name.drop_back() : Name;
  StringRef Op = StringSwitch<StringRef>(Base)
                     .Cases("__muldc3", "__mulsc3", "mul")
                     .Cases("__divdc3", "__divsc3", "div")
                     .Case("cexp", "exp")
                     .Case("clog", "log")
                     .Case("csqrt", "sqrt")
                     .Case("cabs", "abs")
                     .Case("carg", "arg")
                     .Default("");
  if (Op.empty())
    return std::nullopt;
  LLVMContext &Ctx = Callee.getContext();
  Type *Real = Float ? Type::getFloatTy(Ctx) : Type::getDoubleTy(Ctx);
  Type *Pair = Float ? static_cast<Type *>(FixedVectorType::get(Real, 2))
                     : StructType::get(Ctx, {Real, Real});
  unsigned Parts = Op == "mul" || Op == "div" ? 4 : 2;
  bool RealResult = Op == "abs" || Op == "arg";
  if (Callee.getReturnType() != (RealResult ? Real : Pair))
    return std::nullopt;
  // Operands: four reals (mul, div), or two reals (double), or one
  // <2 x float> (float).
  bool Packed = Float && Parts == 2;
  if (Callee.arg_size() != (Packed ? 1u : Parts) ||
      any_of(Callee.args(), [&](const Argument &A) {
        return A.getType() != (Packed ? Pair : Real);
      }))
    return std::nullopt;
  return ComplexSignature{Op, Real, Packed, Parts};
}

/// slope.complex.<Op>.<re|im>[f]: calls \p Callee on real operands and
/// returns one part; a rule in ComplexRules.cpp differentiates it (the
/// float version ends in "f", as libm's do).
Function *complexPart(Function &Callee, const ComplexSignature &Sig,
                      unsigned Part) {
  Module &M = *Callee.getParent();
  std::string Name = ("slope.complex." + Sig.Op + (Part == 0 ? ".re" : ".im") +
                      (Sig.Real->isFloatTy() ? "f" : ""))
                         .str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  SmallVector<Type *, 4> Params(Sig.Parts, Sig.Real);
  Function *Helper =
      Function::Create(FunctionType::get(Sig.Real, Params, false),
                       GlobalValue::InternalLinkage, Name, M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Helper));
  SmallVector<Value *, 4> Args;
  for (Argument &A : Helper->args())
    Args.push_back(&A);
  if (Sig.Packed) {
    Value *Packed = PoisonValue::get(FixedVectorType::get(Sig.Real, 2));
    Packed = B.CreateInsertElement(Packed, Args[0], uint64_t(0));
    Args = {B.CreateInsertElement(Packed, Args[1], uint64_t(1))};
  }
  Value *Both = B.CreateCall(&Callee, Args);
  B.CreateRet(Both->getType()->isStructTy()
                  ? B.CreateExtractValue(Both, Part)
                  : B.CreateExtractElement(Both, uint64_t(Part)));
  return Helper;
}

/// The real operands of a complex call.
SmallVector<Value *, 4> realOperands(IRBuilderBase &B, CallInst &Call,
                                     const ComplexSignature &Sig) {
  SmallVector<Value *, 4> Args(Call.args());
  if (Sig.Packed)
    Args = {B.CreateExtractElement(Args[0], uint64_t(0)),
            B.CreateExtractElement(Args[0], uint64_t(1))};
  return Args;
}

/// w = f(z...) returning both parts: two calls of the parts' helpers. |z|
/// and arg z are hypot(re, im) and atan2(im, re), exactly (glibc computes
/// them so): functions with rules.
void rewriteComplexCall(CallInst &Call, const ComplexSignature &Sig) {
  IRBuilder<> B(&Call);
  SmallVector<Value *, 4> Args = realOperands(B, Call, Sig);
  Function &Callee = *Call.getCalledFunction();
  Value *Result;
  if (Sig.Op == "abs" || Sig.Op == "arg") {
    Module &M = *Call.getModule();
    bool Float = Sig.Real->isFloatTy();
    StringRef Name = Sig.Op == "arg" ? (Float ? "atan2f" : "atan2")
                                     : (Float ? "hypotf" : "hypot");
    FunctionCallee Real = M.getOrInsertFunction(
        Name, FunctionType::get(Sig.Real, {Sig.Real, Sig.Real}, false));
    Result = Sig.Op == "arg" ? B.CreateCall(Real, {Args[1], Args[0]})
                             : B.CreateCall(Real, {Args[0], Args[1]});
  } else {
    Result = PoisonValue::get(Call.getType());
    for (unsigned Part = 0; Part < 2; ++Part) {
      Value *Value = B.CreateCall(complexPart(Callee, Sig, Part), Args);
      Result = Result->getType()->isStructTy()
                   ? B.CreateInsertValue(Result, Value, Part)
                   : B.CreateInsertElement(Result, Value, uint64_t(Part));
    }
  }
  Result->takeName(&Call);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

} // namespace

bool rewriteComplexCalls(Function &F) {
  SmallVector<std::pair<CallInst *, ComplexSignature>, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (std::optional<ComplexSignature> Sig = complexSignature(*Callee))
            Calls.push_back({Call, *Sig});
  for (auto &[Call, Sig] : Calls)
    rewriteComplexCall(*Call, Sig);
  return !Calls.empty();
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
