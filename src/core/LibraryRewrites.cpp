//===- LibraryRewrites.cpp ------------------------------------------------===//
#include "LibraryRewrites.h"
#include "KnownInactive.h"
#include "LibC.h"

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

} // namespace

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
  for (auto [Call, Func] : Calls) {
    if (Func == LibFunc_frexp || Func == LibFunc_frexpf)
      rewriteFrexp(*Call);
    else if (Func == LibFunc_modf || Func == LibFunc_modff)
      rewriteModf(*Call);
    else
      rewritePosixMemalign(*Call);
  }
  return !Calls.empty();
}

} // namespace slope
