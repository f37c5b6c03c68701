//===- DisjointCall.cpp ---------------------------------------------------===//
#include "DisjointCall.h"

#include "DiffError.h"
#include "Target.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace slope {

namespace {

/// Beyond this many ranges the pairwise test costs more than it can save.
constexpr unsigned MaxRanges = 16;

/// Bytes [Begin, Begin + Bytes) of a pointer argument or shadow.
struct Range {
  Value *Begin;
  Value *Bytes;
  /// Written by the primal (through the parameter) or, for shadows, by the
  /// reverse sweep.
  bool Written;
  /// Shadows are not noalias in the derivative: two of them may overlap.
  bool Shadow;
};

bool isUsedPointer(const Argument &A) {
  return A.getType()->isPointerTy() && !A.use_empty();
}

SmallVector<Range, 8> rangesOf(const MarkerCall &Marker) {
  SmallVector<Range, 8> Ranges;
  Function &Target = *Marker.Request.Target;
  for (Argument &A : Target.args()) {
    if (!isUsedPointer(A))
      continue;
    unsigned I = A.getArgNo();
    Ranges.push_back(
        {Marker.Primals[I], Marker.Extents[I], !A.onlyReadsMemory(), false});
    if (Marker.Request.Args[I] == ArgActivity::Dup)
      for (unsigned Lane = 0; Lane < Marker.Request.Width; ++Lane)
        Ranges.push_back(
            {Marker.shadow(Lane, I), Marker.Extents[I], true, true});
  }
  return Ranges;
}

/// The result of whichever of \p Fast and \p Slow ran, at B.
Value *merge(IRBuilderBase &B, CallBase *Fast, CallBase *Slow) {
  if (Fast->getType()->isVoidTy())
    return Fast;
  PHINode *Result = B.CreatePHI(Fast->getType(), 2, "slope.result");
  Result->addIncoming(Fast, Fast->getParent());
  Result->addIncoming(Slow, Slow->getParent());
  return Result;
}

} // namespace

bool mayCallDisjoint(const MarkerCall &Marker) {
  const DiffRequest &Req = Marker.Request;
  Function &Target = *Req.Target;
  // GPU code loads nothing again in the reverse sweep (other threads may
  // write in between): a second derivative would gain nothing there.
  if (Req.Mode != DiffMode::Reverse || Marker.Extents.empty() ||
      Marker.Call->getFunction()->hasOptNone() || Target.isDeclaration() ||
      targetFacts(*Target.getParent()).OtherThreadsWrite)
    return false;
  bool AnyExtent = any_of(Marker.Extents, [](Value *Extent) {
    auto *Known = dyn_cast<ConstantInt>(Extent);
    return !Known || !Known->isZero();
  });
  unsigned Pointers = 0;
  bool Written = false;
  for (Argument &A : Target.args()) {
    if (!isUsedPointer(A))
      continue;
    auto *Known = dyn_cast<ConstantInt>(Marker.Extents[A.getArgNo()]);
    if (Known && Known->isZero()) {
      if (AnyExtent)
        explainNoDisjoint(Marker, "argument " +
                                      std::to_string(A.getArgNo() + 1) +
                                      " has no extent");
      return false;
    }
    ++Pointers;
    Written |= !A.onlyReadsMemory();
  }
  return Pointers > 1 && Written && rangesOf(Marker).size() <= MaxRanges;
}

void explainNoDisjoint(const MarkerCall &Marker, const Twine &Why) {
  Function &Caller = *Marker.Call->getFunction();
  if (!Caller.getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled(
          "slope"))
    return;
  // At the user's grad<> call, not in slope.hpp where the marker is.
  DILocation *Where = Marker.Call->getDebugLoc().get();
  while (Where && Where->getInlinedAt())
    Where = Where->getInlinedAt();
  OptimizationRemarkEmitter ORE(&Caller);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis("slope", "NotDisjoint",
                                      DiagnosticLocation(Where),
                                      Marker.Call->getParent())
           << "the extents given here do not let '"
           << sourceName(Marker.Request.Target->getName())
           << "' be differentiated for arguments that do not overlap: "
           << Why.str();
  });
}

Value *callDisjointOrPlain(IRBuilderBase &B, const MarkerCall &Marker,
                           Function &Disjoint, Function &Plain,
                           ArrayRef<Value *> Args) {
  Type *Int = B.getInt64Ty();
  SmallVector<Range, 8> Ranges = rangesOf(Marker);
  SmallVector<std::pair<Value *, Value *>, 8> Bounds;
  Value *Apart = B.getTrue();
  for (const Range &R : Ranges) {
    Value *Bytes = B.CreateZExtOrTrunc(R.Bytes, Int);
    Value *Begin = B.CreatePtrToInt(R.Begin, Int);
    Bounds.push_back({Begin, B.CreateAdd(Begin, Bytes)});
    // An extent of 0 at run time means the caller did not give one.
    Apart = B.CreateAnd(Apart, B.CreateIsNotNull(Bytes));
  }
  for (unsigned I = 0; I < Ranges.size(); ++I)
    for (unsigned J = I + 1; J < Ranges.size(); ++J) {
      if ((!Ranges[I].Written && !Ranges[J].Written) ||
          (Ranges[I].Shadow && Ranges[J].Shadow))
        continue;
      auto [BeginI, EndI] = Bounds[I];
      auto [BeginJ, EndJ] = Bounds[J];
      Apart = B.CreateAnd(Apart, B.CreateOr(B.CreateICmpULE(EndI, BeginJ),
                                            B.CreateICmpULE(EndJ, BeginI)));
    }
  auto *Invoke = dyn_cast<InvokeInst>(Marker.Call);
  if (!Invoke) {
    Instruction *ThenTerm, *ElseTerm;
    SplitBlockAndInsertIfThenElse(Apart, B.GetInsertPoint(), &ThenTerm,
                                  &ElseTerm);
    IRBuilder<> Then(ThenTerm), Else(ElseTerm);
    CallInst *Fast = Then.CreateCall(&Disjoint, Args);
    CallInst *Slow = Else.CreateCall(&Plain, Args);
    // The marker call now starts the block where the two calls meet.
    B.SetInsertPoint(Marker.Call);
    return merge(B, Fast, Slow);
  }
  // In a try block (or with cleanups): two invokes that meet before the
  // marker's normal destination and share its unwind destination.
  BasicBlock *From = Invoke->getParent();
  BasicBlock *Normal = Invoke->getNormalDest();
  BasicBlock *Unwind = Invoke->getUnwindDest();
  LLVMContext &Context = B.getContext();
  Function *Caller = From->getParent();
  auto *FastBlock =
      BasicBlock::Create(Context, "slope.disjoint", Caller, Normal);
  auto *SlowBlock = BasicBlock::Create(Context, "slope.plain", Caller, Normal);
  auto *Join = BasicBlock::Create(Context, "slope.results", Caller, Normal);
  B.CreateCondBr(Apart, FastBlock, SlowBlock);
  IRBuilder<> Fast(FastBlock), Slow(SlowBlock);
  InvokeInst *FastCall = Fast.CreateInvoke(&Disjoint, Join, Unwind, Args);
  InvokeInst *SlowCall = Slow.CreateInvoke(&Plain, Join, Unwind, Args);
  for (PHINode &Phi : Unwind->phis()) {
    Value *Incoming = Phi.getIncomingValueForBlock(From);
    Phi.removeIncomingValue(From, /*DeletePHIIfEmpty=*/false);
    Phi.addIncoming(Incoming, FastBlock);
    Phi.addIncoming(Incoming, SlowBlock);
  }
  Normal->replacePhiUsesWith(From, Join);
  B.SetInsertPoint(BranchInst::Create(Normal, Join));
  return merge(B, FastCall, SlowCall);
}

} // namespace slope
