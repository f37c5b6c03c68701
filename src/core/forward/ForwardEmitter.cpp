//===- ForwardEmitter.cpp - Tangents alongside the primal -----------------===//
//
// Forward mode keeps the primal's control flow: every active instruction is
// followed by the computation of its tangent, every active phi by a tangent
// phi. Loops need nothing special. Vector forward mode (Req.Width > 1)
// carries one tangent per lane, and one shadow per lane for each shadowed
// pointer, beside a primal that runs once.
//
//===----------------------------------------------------------------------===//
#include "Activity.h"
#include "ByteLayout.h"
#include "CallDerivatives.h"
#include "CloneInto.h"
#include "CustomRules.h"
#include "DiffError.h"
#include "Differentiator.h"
#include "Emitters.h"
#include "EnzymeRules.h"
#include "OpenMP.h"
#include "Preprocess.h"
#include "Rules.h"
#include "Shadows.h"
#include "SharedMemory.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

Type *resultStructType(Type *PrimalResult, ArrayRef<Type *> Extra) {
  SmallVector<Type *, 8> Fields;
  if (!PrimalResult->isVoidTy())
    Fields.push_back(PrimalResult);
  Fields.append(Extra.begin(), Extra.end());
  return StructType::get(PrimalResult->getContext(), Fields);
}

namespace {

class ForwardEmitter {
public:
  ForwardEmitter(const DiffRequest &Req, Function &Primal,
                 const TargetLibraryInfo &TLI)
      : Req(Req), Primal(Primal), TLI(TLI) {}

  Expected<Function *> run();
  /// Removes what a failed run() left behind.
  void discard() {
    if (Derivative)
      discardGenerated(*Derivative);
  }

private:
  /// The tangent of V in the current lane, or null when V is inactive.
  Value *tangent(Value *V) const { return Tangents[Lane].lookup(V); }
  Value *tangentOrZero(Value *V) const {
    if (Value *T = tangent(V))
      return T;
    return Constant::getNullValue(V->getType());
  }
  ShadowMap &shadows() const { return *Shadows[Lane]; }
  /// Emits what \p I needs in every lane.
  Error emitInstruction(Instruction &I);
  Error emitTangent(Instruction &I);
  /// Stores and memory intrinsics keep shadow memory in step.
  Error emitMemoryTangent(Instruction &I);
  /// A call with a custom derivative becomes a call of its forward rule
  /// per lane.
  Error emitCustomForward(CallBase &Call, const CustomRule &Rule);
  /// The same for a rule registered the way Enzyme registers them.
  Error emitEnzymeRuleForward(CallBase &Call, const CustomRule &Custom);
  /// A call that was not inlined becomes a call of the callee's forward
  /// derivative.
  Error emitCallForward(CallBase &Call);
  void rewriteReturn(ReturnInst &Ret);
  /// \p New computes what \p Call did: it takes the call's uses and its
  /// activity (a later call that takes it as an argument must still see
  /// an active argument).
  void replaceCall(CallBase &Call, Value *New) {
    Call.replaceAllUsesWith(New);
    Activity->replaceValue(&Call, New);
  }

  const DiffRequest &Req;
  Function &Primal;
  const TargetLibraryInfo &TLI;
  Function *Derivative = nullptr;
  std::optional<ActivityInfo> Activity;
  /// Per lane.
  SmallVector<std::unique_ptr<ShadowMap>, 1> Shadows;
  SmallVector<DenseMap<Value *, Value *>, 1> Tangents;
  struct TangentPhi {
    PHINode *Phi;
    PHINode *Tangent;
    unsigned Lane;
  };
  SmallVector<TangentPhi, 8> TangentPhis;
  unsigned Lane = 0;
  bool ResultIsFP = false;
};

Expected<Function *> ForwardEmitter::run() {
  Type *RetTy = Primal.getReturnType();
  ResultIsFP = RetTy->isFloatingPointTy();

  unsigned Width = Req.Width;
  SmallVector<Type *, 8> Params(Primal.getFunctionType()->params());
  SmallVector<unsigned, 8> ExtraArgs; // active scalars and dup pointers
  for (unsigned I = 0; I < Req.Args.size(); ++I)
    if (Req.takesShadow(I))
      ExtraArgs.push_back(I);
  for (unsigned L = 0; L < Width; ++L)
    for (unsigned I : ExtraArgs)
      Params.push_back(Primal.getArg(I)->getType());
  SmallVector<Type *, 4> ResultTangents(Width, RetTy);
  Type *NewRetTy = ResultIsFP ? resultStructType(RetTy, ResultTangents) : RetTy;
  ValueToValueMapTy Map;
  Derivative =
      cloneIntoNewSignature(Primal, FunctionType::get(NewRetTy, Params, false),
                            Req.derivativeName(), Map);

  localizeSharedMemory(*Derivative);
  auto Analysis =
      ActivityInfo::analyze(*Derivative, Req.Args, ResultIsFP, TLI, Req.Rules);
  if (!Analysis)
    return Analysis.takeError();
  Activity = std::move(*Analysis);
  Tangents.resize(Width);
  for (unsigned L = 0; L < Width; ++L) {
    Shadows.push_back(std::make_unique<ShadowMap>(*Derivative, *Activity,
                                                  DiffMode::Forward, TLI));
    for (auto [K, ArgNo] : enumerate(ExtraArgs)) {
      Argument *Extra =
          Derivative->getArg(Primal.arg_size() + L * ExtraArgs.size() + K);
      Argument *Arg = Derivative->getArg(ArgNo);
      if (Req.isActive(ArgNo)) {
        Extra->setName(Primal.getArg(ArgNo)->getName() + ".tangent");
        Tangents[L][Arg] = Extra;
      } else {
        Extra->setName(Primal.getArg(ArgNo)->getName() + ".shadow");
        Shadows[L]->setShadow(Arg, Extra);
      }
    }
    if (Error E = Shadows[L]->build())
      return std::move(E);
  }

  ReversePostOrderTraversal<Function *> RPO(Derivative);
  for (BasicBlock *BB : RPO) {
    SmallVector<Instruction *, 32> Original;
    for (Instruction &I : *BB)
      Original.push_back(&I);
    for (Instruction *I : Original) {
      if (auto *Ret = dyn_cast<ReturnInst>(I)) {
        rewriteReturn(*Ret);
        continue;
      }
      if (Error E = emitInstruction(*I))
        return std::move(E);
    }
  }
  for (auto [Phi, TangentPhi, PhiLane] : TangentPhis) {
    Lane = PhiLane;
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      TangentPhi->addIncoming(tangentOrZero(Phi->getIncomingValue(K)),
                              Phi->getIncomingBlock(K));
  }

  if (Error E = verifyGenerated(*Derivative))
    return std::move(E);
  simplify(*Derivative);
  return Derivative;
}

Error ForwardEmitter::emitInstruction(Instruction &I) {
  // Calls that become calls of derivatives serve all lanes at once.
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
    if (Custom && Custom->Forward)
      return emitCustomForward(*Call, *Custom);
    bool Differentiable = isDifferentiableCall(*Call);
    if (Custom && Custom->EnzymeForward &&
        (Custom->forwardServesLanes(Req.Width) || !Differentiable))
      return emitEnzymeRuleForward(*Call, *Custom);
    if (Differentiable && Activity->isActive(Call) && !findRule(I))
      return emitCallForward(*Call);
    if (Differentiable && !Activity->isActive(Call) &&
        any_of(Call->args(),
               [&](const Use &A) { return Activity->isShadowed(A.get()); }))
      return emitCallForward(*Call);
  }
  bool Active = Activity->isActive(&I);
  for (Lane = 0; Lane < Req.Width; ++Lane)
    if (Error E = Active ? emitTangent(I) : emitMemoryTangent(I))
      return E;
  Lane = 0;
  return Error::success();
}

Error ForwardEmitter::emitTangent(Instruction &I) {
  if (auto *Phi = dyn_cast<PHINode>(&I)) {
    IRBuilder<> B(Phi->getParent(), Phi->getParent()->getFirstNonPHIIt());
    PHINode *T = B.CreatePHI(Phi->getType(), Phi->getNumIncomingValues(),
                             Phi->getName() + ".tangent");
    TangentPhis.push_back({Phi, T, Lane});
    Tangents[Lane][Phi] = T;
    return Error::success();
  }

  IRBuilder<> B(I.getParent(), std::next(I.getIterator()));
  Value *T = nullptr;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    T = B.CreateFPCast(tangentOrZero(I.getOperand(0)), I.getType());
    break;
  case Instruction::Freeze:
    T = tangentOrZero(I.getOperand(0));
    break;
  case Instruction::Load: {
    auto &Load = cast<LoadInst>(I);
    T = B.CreateAlignedLoad(
        I.getType(), shadows().get(Load.getPointerOperand()), Load.getAlign());
    break;
  }
  case Instruction::Select:
    T = B.CreateSelect(I.getOperand(0), tangentOrZero(I.getOperand(1)),
                       tangentOrZero(I.getOperand(2)));
    break;
  default: {
    const DerivativeRule *Rule = findRule(I);
    if (!Rule)
      return unsupported(I, "no derivative rule");
    SmallVector<Value *, 3> OperandTangents;
    for (Use *U : differentiableOperands(I))
      OperandTangents.push_back(tangent(U->get()));
    auto Available = [](Value *V) { return V; };
    RuleOperands Ops(B, I, Available);
    T = applyForward(*Rule, Ops, OperandTangents);
    break;
  }
  }
  T->setName(I.getName() + ".tangent");
  Tangents[Lane][&I] = T;
  return Error::success();
}

Error ForwardEmitter::emitCustomForward(CallBase &Call,
                                        const CustomRule &Rule) {
  FunctionType *RuleType = Rule.Forward->getFunctionType();
  unsigned N = Call.arg_size();
  if (RuleType->getNumParams() != 2 * N + 2)
    return unsupported(Call, "its custom forward rule does not match it");
  IRBuilder<> B(&Call);
  Type *Result = Call.getType();
  Value *ValueOut = ConstantPointerNull::get(B.getPtrTy());
  Value *TangentOut = ValueOut;
  if (!Result->isVoidTy()) {
    BasicBlock &Entry = Derivative->getEntryBlock();
    IRBuilder<> AtEntry(&Entry, Entry.getFirstInsertionPt());
    ValueOut = AtEntry.CreateAlloca(Result, nullptr, "custom.value");
    TangentOut = AtEntry.CreateAlloca(Result, nullptr, "custom.tangent");
  }
  // One call per lane (a rule computes one tangent); the value is the
  // first lane's.
  Value *V = nullptr;
  for (Lane = 0; Lane < Req.Width; ++Lane) {
    SmallVector<Value *, 16> Args(Call.args());
    for (unsigned I = 0; I < N; ++I) {
      Value *A = Call.getArgOperand(I);
      if (A->getType()->isFloatingPointTy())
        Args.push_back(tangentOrZero(A));
      else if (A->getType()->isPointerTy() && Activity->isShadowed(A))
        Args.push_back(shadows().get(A));
      else
        Args.push_back(Constant::getNullValue(RuleType->getParamType(N + I)));
    }
    Args.push_back(ValueOut);
    Args.push_back(TangentOut);
    // Adapters may carry debug info; calls to them need a location.
    CallInst *RuleCall = B.CreateCall(Rule.Forward, Args);
    RuleCall->setDebugLoc(ruleCallLocation(Call));
    RuleCall->setCallingConv(Rule.Forward->getCallingConv());
    if (Result->isVoidTy())
      continue;
    if (!V)
      V = B.CreateLoad(Result, ValueOut, Call.getName());
    Tangents[Lane][V] =
        B.CreateLoad(Result, TangentOut, Call.getName() + ".tangent");
  }
  Lane = 0;
  if (V)
    replaceCall(Call, V);
  for (auto &LaneTangents : Tangents)
    LaneTangents.erase(&Call);
  Call.eraseFromParent();
  return Error::success();
}

Error ForwardEmitter::emitEnzymeRuleForward(CallBase &Call,
                                            const CustomRule &Custom) {
  Function &Rule = *Custom.EnzymeForward;
  // A rule that runs instead of the call runs once, with one tangent.
  if (Custom.ForwardRunsPrimal && Req.Width != 1)
    return unsupported(Call, "vector mode (slope::lanes) through a call "
                             "whose forward rule computes its effects (a "
                             "checkpointed loop) is not supported yet");
  IRBuilder<> B(Custom.ForwardRunsPrimal ? &Call : Call.getNextNode());
  Value *Primal = nullptr;
  for (Lane = 0; Lane < Req.Width; ++Lane) {
    SmallVector<Value *, 8> Companions;
    for (Value *A : Call.args())
      Companions.push_back(A->getType()->isPointerTy() &&
                                   Activity->isShadowed(A)
                               ? shadows().get(A)
                               : tangent(A));
    Expected<EnzymeForwardResult> Result =
        emitEnzymeForward(B, Call, Rule, Companions);
    if (!Result) {
      Lane = 0;
      return unsupported(Call, toString(Result.takeError()));
    }
    if (!Primal)
      Primal = Result->Primal;
    if (Result->Tangent)
      Tangents[Lane][Primal ? Primal : &Call] = Result->Tangent;
  }
  Lane = 0;
  if (Custom.ForwardRunsPrimal && !Primal && Call.getType()->isVoidTy()) {
    Call.eraseFromParent();
    return Error::success();
  }
  if (Primal) { // the rule computed the result: the call goes
    replaceCall(Call, Primal);
    for (auto &LaneTangents : Tangents)
      LaneTangents.erase(&Call);
    Call.eraseFromParent();
  }
  return Error::success();
}

Error ForwardEmitter::emitCallForward(CallBase &Call) {
  DiffRequest CalleeReq =
      requestForCall(Call, DiffMode::Forward, *Activity, Req);
  Expected<Function *> CalleeDerivative = getDerivative(CalleeReq);
  if (!CalleeDerivative)
    return CalleeDerivative.takeError();
  IRBuilder<> B(&Call);
  SmallVector<Value *, 16> Args(Call.args());
  for (Lane = 0; Lane < Req.Width; ++Lane)
    for (auto [Arg, Kind] : zip(Call.args(), CalleeReq.Args))
      if (Kind == ArgActivity::Active)
        Args.push_back(tangentOrZero(Arg.get()));
      else if (Kind == ArgActivity::Dup)
        Args.push_back(shadows().get(Arg.get()));
  Lane = 0;
  if (isParallelRegion(Call)) {
    // The team runs the body's tangent function instead of the body.
    emitFork(B, Call, **CalleeDerivative, ArrayRef(Args).drop_front(2));
    Call.eraseFromParent();
    return Error::success();
  }
  CallInst *New = B.CreateCall(*CalleeDerivative, Args);
  New->setDebugLoc(ruleCallLocation(Call));
  if (Call.getType()->isFloatingPointTy()) {
    Value *V = B.CreateExtractValue(New, 0, Call.getName());
    for (unsigned L = 0; L < Req.Width; ++L)
      Tangents[L][V] =
          B.CreateExtractValue(New, 1 + L, Call.getName() + ".tangent");
    replaceCall(Call, V);
  } else if (!Call.getType()->isVoidTy()) {
    replaceCall(Call, New);
  }
  for (auto &LaneTangents : Tangents)
    LaneTangents.erase(&Call);
  Call.eraseFromParent();
  return Error::success();
}

Error ForwardEmitter::emitMemoryTangent(Instruction &I) {
  IRBuilder<> B(I.getParent(), std::next(I.getIterator()));
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    // An atomic addition adds the tangents the same way.
    if (RMW->getValOperand()->getType()->isFloatingPointTy() &&
        Activity->isShadowed(RMW->getPointerOperand()))
      B.CreateAtomicRMW(RMW->getOperation(),
                        shadows().get(RMW->getPointerOperand()),
                        tangentOrZero(RMW->getValOperand()), RMW->getAlign(),
                        RMW->getOrdering(), RMW->getSyncScopeID());
    return Error::success();
  }
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Value *V = Store->getValueOperand();
    if (LoadInst *Source = Activity->integerCopySource(Store)) {
      // Bytes copied as integers: copy their tangents the same way.
      B.CreateAlignedStore(
          B.CreateAlignedLoad(V->getType(),
                              shadows().get(Source->getPointerOperand()),
                              Source->getAlign()),
          shadows().get(Store->getPointerOperand()), Store->getAlign());
      return Error::success();
    }
    if (V->getType()->isFloatingPointTy() &&
        Activity->isShadowed(Store->getPointerOperand()))
      B.CreateAlignedStore(tangentOrZero(V),
                           shadows().get(Store->getPointerOperand()),
                           Store->getAlign());
    return Error::success();
  }
  auto *Mem = dyn_cast<MemIntrinsic>(&I);
  if (!Mem)
    return Error::success();
  bool DestShadowed = Activity->isShadowed(Mem->getRawDest());
  auto *Transfer = dyn_cast<MemTransferInst>(Mem);
  bool SourceShadowed =
      Transfer && Activity->isShadowed(Transfer->getRawSource());
  if (!DestShadowed) {
    if (SourceShadowed && !copiesPlainData(I))
      return unsupported(I, "it copies differentiated data into memory "
                            "Slope does not track");
    return Error::success();
  }
  // Bytes copied from shadowed memory carry their tangents (and pointer
  // shadows) along; anything else written here has a zero tangent.
  Value *Dest = shadows().get(Mem->getRawDest());
  if (SourceShadowed) {
    Value *Source = shadows().get(Transfer->getRawSource());
    if (isa<MemMoveInst>(Mem))
      B.CreateMemMove(Dest, Mem->getDestAlign(), Source,
                      Transfer->getSourceAlign(), Mem->getLength());
    else
      B.CreateMemCpy(Dest, Mem->getDestAlign(), Source,
                     Transfer->getSourceAlign(), Mem->getLength());
  } else {
    B.CreateMemSet(Dest, B.getInt8(0), Mem->getLength(), Mem->getDestAlign());
  }
  return Error::success();
}

void ForwardEmitter::rewriteReturn(ReturnInst &Ret) {
  if (!ResultIsFP)
    return;
  IRBuilder<> B(&Ret);
  Value *V = Ret.getReturnValue();
  Value *Result = UndefValue::get(Derivative->getReturnType());
  Result = B.CreateInsertValue(Result, V, 0);
  for (Lane = 0; Lane < Req.Width; ++Lane)
    Result = B.CreateInsertValue(Result, tangentOrZero(V), 1 + Lane);
  Lane = 0;
  B.CreateRet(Result);
  Ret.eraseFromParent();
}

} // namespace

Expected<Function *> emitForward(const DiffRequest &Req, Function &Primal,
                                 const TargetLibraryInfo &TLI) {
  ForwardEmitter Emitter(Req, Primal, TLI);
  Expected<Function *> Derivative = Emitter.run();
  if (!Derivative)
    Emitter.discard();
  return Derivative;
}

} // namespace slope
