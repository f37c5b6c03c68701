//===- ReverseCalls.cpp - Calls in reverse mode ---------------------------===//
//
// A call with a custom derivative runs as it is in the primal sweep; its
// pullback runs in the reverse sweep. A call that preprocessing could not
// inline (recursion) becomes a call of the callee's augmented forward, and
// its reverse part runs at the mirrored point of the reverse sweep with the
// record the augmented forward left (SplitDerivative.h).
//
//===----------------------------------------------------------------------===//
#include "CallDerivatives.h"
#include "CheckpointedLoops.h"
#include "CustomRules.h"
#include "DiffError.h"
#include "EnzymeRules.h"
#include "OpenMP.h"
#include "ReverseEmitter.h"
#include "Rules.h"
#include "SplitDerivative.h"

#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace slope {

void ReverseEmitter::explainAtUserCall(Instruction &At, StringRef What) {
  if (!Derivative->getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled(
          "slope"))
    return;
  OptimizationRemarkEmitter ORE(Derivative);
  ORE.emit(OptimizationRemarkAnalysis("slope", "Planned",
                                      DebugLoc(userLocation(At.getDebugLoc())),
                                      At.getParent())
           << "in the reverse sweep of '" << sourceName(Derivative->getName())
           << "' " << What);
}

Error ReverseEmitter::splitCalls() {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(*Derivative))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
          (Custom ? !Custom->Pullback &&
                        (Custom->EnzymeReverse || isDifferentiableCall(*Call))
                  : isDifferentiableCall(*Call)) &&
          !findRule(I) &&
          !(Req.Rules && Req.Rules->isInactive(Call->getCalledFunction())) &&
          (Activity->isActive(Call) || (Custom && Custom->AppliesToEveryCall) ||
           any_of(Call->args(), [&](Use &A) {
             return Activity->isActive(A.get()) ||
                    Activity->isShadowed(A.get());
           })))
        Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    if (Activity->isShadowed(Call))
      return unsupported(*Call, "it returns a differentiated pointer from a "
                                "call Slope cannot inline");
    for (unsigned I = 0; I < Call->arg_size(); ++I)
      if (Call->isByValArgument(I) &&
          Activity->isShadowed(Call->getArgOperand(I)))
        return unsupported(*Call, "it passes a struct of differentiated data "
                                  "by value to a call Slope cannot inline");
    DiffRequest CalleeReq =
        requestForCall(*Call, DiffMode::Reverse, *Activity, Req);
    const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
    // With several lanes the callee's body stands in for rules that keep
    // one record per call (see CustomRule::reverseServesLanes).
    bool ByRule = Custom && Custom->EnzymeReverse &&
                  Custom->reverseServesLanes(Req.Width);
    if (Custom && Custom->EnzymeReverse && !ByRule &&
        !isDifferentiableCall(*Call))
      return unsupported(*Call, "vector mode (slope::lanes) through a call "
                                "whose rules keep a record between an "
                                "augmented forward and a reverse part is not "
                                "supported yet");
    if (ByRule && isCheckpointedLoop(*Call))
      if (std::optional<std::string> Why = notReExecutable(*Call))
        return unsupported(*Call, *Why);
    Expected<SplitDerivative> Parts = ByRule ? enzymeSplit(*Custom, CalleeReq)
                                             : getSplitDerivative(CalleeReq);
    if (Parts && isParallelRegion(*Call))
      Parts = teamParts(*Parts, *Call);
    if (!Parts)
      return Parts.takeError();
    IRBuilder<> B(Call);
    SmallVector<Value *, 8> Primals(Call->args());
    SmallVector<Value *, 16> Args =
        derivativeArguments(CalleeReq, Primals, [&](unsigned Lane, unsigned I) {
          return LaneShadows[Lane]->get(Primals[I]);
        });
    AllocaInst *RecordSlot = entrySlot(B.getPtrTy(), "record.slot", nullptr);
    Args.push_back(RecordSlot);
    CallInst *Augmented = B.CreateCall(Parts->Augmented, Args);
    Augmented->setDebugLoc(ruleCallLocation(*Call));
    Augmented->takeName(Call);
    if (ByRule && isCheckpointedLoop(*Call))
      explainAtUserCall(*Augmented, checkpointedLoopCost(*Call));
    Value *Record = B.CreateLoad(B.getPtrTy(), RecordSlot, "record");
    Call->replaceAllUsesWith(Augmented);
    Activity->replaceValue(Call, Augmented);
    SplitCalls[Augmented] = {Parts->Reverse, CalleeReq.Args, Record};
    Call->eraseFromParent();
  }
  return Error::success();
}

Error ReverseEmitter::emitSplitCallReverse(CallBase &Call,
                                           const SplitCall &Split,
                                           Value *Adjoint, IRBuilderBase &B) {
  // One call of the reverse part serves every lane: lane 0 makes it, with
  // the result's adjoint in each lane.
  if (Lane > 0)
    return Error::success();
  unsigned N = Split.Args.size();
  SmallVector<Value *, 8> Primals;
  for (unsigned I = 0; I < N; ++I)
    Primals.push_back(primalValue(Call.getArgOperand(I), B));
  DiffRequest Callee;
  Callee.Args = Split.Args;
  Callee.Width = Req.Width;
  SmallVector<Value *, 16> Args =
      derivativeArguments(Callee, Primals, [&](unsigned L, unsigned I) {
        return primalValue(LaneShadows[L]->get(Call.getArgOperand(I)), B);
      });
  if (Call.getType()->isFloatingPointTy())
    for (Lane = 0; Lane < Req.Width; ++Lane) {
      Value *LaneAdjoint = Adjoint;
      if (Lane > 0 && Activity->isActive(&Call)) {
        LaneAdjoint = loadAdjoint(&Call, B);
        consumeAdjoint(&Call, B);
      }
      Args.push_back(LaneAdjoint ? LaneAdjoint
                                 : Constant::getNullValue(Call.getType()));
    }
  Args.push_back(primalValue(Split.Record, B));
  CallInst *Result = B.CreateCall(Split.Reverse, Args);
  Result->setDebugLoc(ruleCallLocation(Call));
  // {primal result (unused), then lane by lane the adjoints of the active
  // arguments}
  unsigned Field = Call.getType()->isVoidTy() ? 0 : 1;
  for (Lane = 0; Lane < Req.Width; ++Lane)
    for (unsigned I = 0; I < N; ++I)
      if (Split.Args[I] == ArgActivity::Active)
        accumulate(Call.getArgOperand(I), B.CreateExtractValue(Result, Field++),
                   B);
  Lane = 0;
  return Error::success();
}

Error ReverseEmitter::checkCustomPullbackMemory(LaterWrites &Later) {
  for (Instruction &I : instructions(*Derivative)) {
    auto *Call = dyn_cast<CallBase>(&I);
    const CustomRule *Rule =
        Call ? customRuleOfCall(*Call, Req.Rules) : nullptr;
    if (!Rule || !Rule->Pullback || Rule->PullbackReadsOnlyShadows)
      continue;
    for (Use &Arg : Call->args()) {
      if (!Arg->getType()->isPointerTy() || isa<Constant>(Arg))
        continue;
      // Between the parts of a split derivative the caller runs code of
      // its own, which may write anything the pullback reads.
      if (Req.Split)
        return unsupported(
            *Call, "argument " + std::to_string(Arg.getOperandNo() + 1) +
                       " is a pointer, and in a function Slope splits "
                       "(recursion, __enzyme_augmentfwd) the caller may "
                       "change its memory before the reverse part runs the "
                       "custom pullback; register an augmented forward that "
                       "keeps what the pullback reads "
                       "(__enzyme_register_gradient)");
      Instruction *Writer =
          Later.laterWriter(*Call, MemoryLocation::getBeforeOrAfter(Arg));
      if (!Writer)
        continue;
      std::string Where;
      if (const DILocation *Loc = Writer->getDebugLoc())
        Where = " (at line " + std::to_string(Loc->getLine()) + ")";
      return unsupported(
          *Call, "argument " + std::to_string(Arg.getOperandNo() + 1) +
                     " points to memory that a later write" + Where +
                     " may change before the reverse sweep runs the custom "
                     "pullback, which would read the new contents; copy "
                     "what the call reads into memory nothing writes after "
                     "it, or register an augmented forward that keeps it "
                     "(__enzyme_register_gradient)");
    }
  }
  return Error::success();
}

Error ReverseEmitter::emitCustomReverse(CallBase &Call, const CustomRule &Rule,
                                        Value *Adjoint, IRBuilderBase &B) {
  FunctionType *RuleType = Rule.Pullback->getFunctionType();
  unsigned N = Call.arg_size();
  if (RuleType->getNumParams() != 3 * N + 1)
    return unsupported(Call, "its custom pullback does not match it");
  SmallVector<Value *, 16> Args;
  for (Value *A : Call.args())
    Args.push_back(primalValue(A, B));
  for (unsigned I = 0; I < N; ++I) {
    Value *A = Call.getArgOperand(I);
    Args.push_back(A->getType()->isPointerTy() && Activity->isShadowed(A)
                       ? shadowAt(A, B)
                       : Constant::getNullValue(RuleType->getParamType(N + I)));
  }
  Type *SeedType = RuleType->getParamType(2 * N);
  Args.push_back(Adjoint ? Adjoint : Constant::getNullValue(SeedType));
  SmallVector<AllocaInst *, 4> Outs;
  for (Value *A : Call.args()) {
    AllocaInst *Out = nullptr;
    if (A->getType()->isFloatingPointTy()) {
      Out = entrySlot(A->getType(), "custom.adjoint", nullptr);
      B.CreateStore(Constant::getNullValue(A->getType()), Out);
    }
    Outs.push_back(Out);
    Args.push_back(Out ? static_cast<Value *>(Out)
                       : ConstantPointerNull::get(B.getPtrTy()));
  }
  // Adapters may carry debug info; calls to them need a location.
  CallInst *RuleCall = B.CreateCall(Rule.Pullback, Args);
  RuleCall->setDebugLoc(ruleCallLocation(Call));
  RuleCall->setCallingConv(Rule.Pullback->getCallingConv());
  for (auto [A, Out] : zip(Call.args(), Outs))
    if (Out)
      accumulate(A.get(), B.CreateLoad(A->getType(), Out), B);
  return Error::success();
}

} // namespace slope
