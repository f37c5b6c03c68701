//===- ReverseEmitter.cpp - Primal sweep, then reverse sweep --------------===//
//
// The derivative is one function: a copy of the primal (the primal sweep)
// whose returns branch into reverse blocks, one per primal block, visited in
// reverse CFG order. A block with several predecessors records which edge
// entered it, and its reverse block branches back along that edge, moving
// phi adjoints to the incoming value of the taken edge.
//
// Adjoints and the primal values the reverse sweep needs live in stack slots
// while the function is built; SROA turns them into SSA values afterwards.
// Values defined in the entry block dominate every reverse block and are
// used directly.
//
//===----------------------------------------------------------------------===//
#include "ReverseEmitter.h"
#include "Activity.h"
#include "AdjointWindows.h"
#include "CallDerivatives.h"
#include "CloneInto.h"
#include "CustomRules.h"
#include "DiffError.h"
#include "Differentiator.h"
#include "Emitters.h"
#include "InvariantLoads.h"
#include "LaterWrites.h"
#include "Preprocess.h"
#include "ReverseVerify.h"
#include "Rules.h"
#include "SeedFactoring.h"
#include "SharedMemory.h"
#include "SplitDerivative.h"
#include "Tape.h"
#include "Target.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace slope {

FunctionType *reverseDerivativeType(const DiffRequest &Req) {
  FunctionType *PrimalType = Req.Target->getFunctionType();
  Type *RetTy = PrimalType->getReturnType();
  SmallVector<Type *, 8> Params(PrimalType->params());
  for (unsigned Lane = 0; Lane < Req.Width; ++Lane)
    for (unsigned I = 0; I < Req.Args.size(); ++I)
      if (Req.takesShadow(I))
        Params.push_back(PrimalType->getParamType(I));
  if (RetTy->isFloatingPointTy())
    Params.append(Req.Width, RetTy);
  SmallVector<Type *, 8> Adjoints;
  for (unsigned Lane = 0; Lane < Req.Width; ++Lane)
    for (unsigned I = 0; I < Req.Args.size(); ++I)
      if (Req.isActive(I))
        Adjoints.push_back(PrimalType->getParamType(I));
  // Nothing to return is void, not {} (PTX has no empty return values).
  Type *Result = RetTy->isVoidTy() && Adjoints.empty()
                     ? RetTy
                     : resultStructType(RetTy, Adjoints);
  return FunctionType::get(Result, Params, false);
}

void ReverseEmitter::createSignatureAndClone() {
  ResultIsFP = Primal.getReturnType()->isFloatingPointTy();
  ValueToValueMapTy Map;
  Derivative = cloneIntoNewSignature(Primal, reverseDerivativeType(Req),
                                     Req.derivativeName(), Map);
  if (ResultIsFP)
    for (unsigned Lane = 0; Lane < Req.Width; ++Lane) {
      Seeds.push_back(
          Derivative->getArg(Derivative->arg_size() - Req.Width + Lane));
      Seeds.back()->setName(Req.Width > 1 ? "seed." + std::to_string(Lane)
                                          : "seed");
    }
}

AllocaInst *ReverseEmitter::entrySlot(Type *Ty, const Twine &Name,
                                      Constant *Init) {
  BasicBlock &Entry = Derivative->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Slot = B.CreateAlloca(Ty, nullptr, Name);
  if (Init)
    B.CreateStore(Init, Slot);
  return Slot;
}

// Adjoints start at -0.0, the identity of fadd, so that the first
// accumulation folds away (x + 0.0 does not: it turns -0.0 into +0.0).
AllocaInst *ReverseEmitter::adjointSlot(Value *V) {
  AllocaInst *&Slot = AdjointSlots[Lane][V];
  if (!Slot)
    Slot = entrySlot(V->getType(), V->getName() + ".adjoint",
                     ConstantFP::getNegativeZero(V->getType()));
  return Slot;
}

Value *ReverseEmitter::loadAdjoint(Value *V, IRBuilderBase &B) {
  return B.CreateLoad(V->getType(), adjointSlot(V));
}

void ReverseEmitter::accumulate(Value *V, Value *Contribution,
                                IRBuilderBase &B) {
  if (!Contribution || !Activity->isActive(V))
    return;
  AllocaInst *Slot = adjointSlot(V);
  B.CreateStore(B.CreateFAdd(B.CreateLoad(V->getType(), Slot), Contribution),
                Slot);
}

void ReverseEmitter::recordIncomingEdges(BasicBlock &BB) {
  SmallVector<BasicBlock *, 4> &Preds = UniquePreds[&BB];
  for (BasicBlock *P : predecessors(&BB))
    if (!is_contained(Preds, P))
      Preds.push_back(P);
  if (Preds.size() < 2 || LoopOfHeader.count(&BB))
    return;
  IRBuilder<> B(&BB, BB.begin());
  // One byte on the tape when the block is in a loop.
  Type *Index = Preds.size() <= 256 ? B.getInt8Ty() : B.getInt32Ty();
  PHINode *From = B.CreatePHI(Index, pred_size(&BB), "came.from");
  for (BasicBlock *P : predecessors(&BB))
    From->addIncoming(ConstantInt::get(Index, find(Preds, P) - Preds.begin()),
                      P);
  CameFrom[&BB] = From;
}

void ReverseEmitter::findGuardedEdges(DominatorTree &DT, LoopInfo &LI) {
  for (BasicBlock &BB : *Derivative) {
    SmallPtrSet<BasicBlock *, 2> Preds(pred_begin(&BB), pred_end(&BB));
    if (Preds.size() != 2 || !InLoop.contains(&BB))
      continue;
    for (BasicBlock *Guard : Preds) {
      auto *Br = dyn_cast<BranchInst>(Guard->getTerminator());
      // Executed once per iteration of BB's loop, before BB: when BB is
      // entered, the guard's condition in this iteration says from where.
      if (Br && Br->isConditional() &&
          (Br->getSuccessor(0) == &BB) != (Br->getSuccessor(1) == &BB) &&
          DT.dominates(Guard, &BB) &&
          LI.getLoopFor(Guard) == LI.getLoopFor(&BB)) {
        GuardedEdges[&BB] = {Br};
        break;
      }
    }
  }
}

Value *ReverseEmitter::enteringEdge(BasicBlock &BB, IRBuilderBase &B) {
  auto Guarded = GuardedEdges.find(&BB);
  // Recomputing a condition that needs the tape would save nothing.
  if (Guarded == GuardedEdges.end() ||
      !availableWithoutTape(Guarded->second.Guard->getCondition()))
    return primalValue(CameFrom[&BB], B);
  BranchInst *Guard = Guarded->second.Guard;
  ArrayRef<BasicBlock *> Preds = UniquePreds[&BB];
  Type *Index = CameFrom[&BB]->getType();
  auto IndexOf = [&](BasicBlock *P) {
    return ConstantInt::get(Index, find(Preds, P) - Preds.begin());
  };
  BasicBlock *Direct = Guard->getParent();
  BasicBlock *Other = Preds[0] == Direct ? Preds[1] : Preds[0];
  bool TrueEntersDirectly = Guard->getSuccessor(0) == &BB;
  explainControl(*Guard, "the edge this branch took is recomputed from its "
                         "condition (no later write may change what it "
                         "reads)");
  Value *Edge = B.CreateSelect(primalValue(Guard->getCondition(), B),
                               IndexOf(TrueEntersDirectly ? Direct : Other),
                               IndexOf(TrueEntersDirectly ? Other : Direct),
                               "came.from.guard");
  if (Verifying)
    emitVerifyCheck(B, Edge, primalValue(CameFrom[&BB], B), *Guard,
                    "(the edge a branch took) recomputed from its condition");
  return Edge;
}

void ReverseEmitter::rewriteReturn(ReturnInst &Ret) {
  IRBuilder<> B(&Ret);
  Value *V = Ret.getReturnValue();
  if (V) {
    if (ResultSlot)
      B.CreateStore(V, ResultSlot);
    Returned[Ret.getParent()] = V;
  }
  saveFinalMemory(B);
  insertSeam(B, NextSeam++, V);
  B.CreateBr(ReverseOf[Ret.getParent()]);
  Ret.eraseFromParent();
}

void ReverseEmitter::consumeAdjoint(Value *V, IRBuilderBase &B) {
  // Inside a loop the slot serves the next (earlier) iteration next.
  auto *I = dyn_cast<Instruction>(V);
  if (I && InLoop.contains(I->getParent()))
    B.CreateStore(ConstantFP::getNegativeZero(V->getType()), adjointSlot(V));
}

Error ReverseEmitter::emitAdjoint(Instruction &I, IRBuilderBase &B) {
  Value *Adjoint = loadAdjoint(&I, B);
  consumeAdjoint(&I, B);
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    accumulate(I.getOperand(0),
               B.CreateFPCast(Adjoint, I.getOperand(0)->getType()), B);
    return Error::success();
  case Instruction::Freeze:
    accumulate(I.getOperand(0), Adjoint, B);
    return Error::success();
  case Instruction::Load:
    emitLoadAdjoint(cast<LoadInst>(I), Adjoint, B);
    return Error::success();
  case Instruction::Select: {
    Value *Cond = primalValue(I.getOperand(0), B);
    Value *Zero = Constant::getNullValue(I.getType());
    if (Activity->isActive(I.getOperand(1)))
      accumulate(I.getOperand(1), B.CreateSelect(Cond, Adjoint, Zero), B);
    if (Activity->isActive(I.getOperand(2)))
      accumulate(I.getOperand(2), B.CreateSelect(Cond, Zero, Adjoint), B);
    return Error::success();
  }
  default:
    break;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
        Custom && Custom->Pullback)
      return emitCustomReverse(*Call, *Custom, Adjoint, B);
    if (auto Split = SplitCalls.find(Call); Split != SplitCalls.end())
      return emitSplitCallReverse(*Call, Split->second, Adjoint, B);
  }
  const DerivativeRule *Rule = ruleReversing(I);
  if (!Rule)
    return unsupported(I, "no derivative rule");
  SmallVector<Use *, 4> Operands = differentiableOperands(I);
  SmallVector<bool, 4> Wanted;
  for (Use *U : Operands)
    Wanted.push_back(Activity->isActive(U->get()));
  auto Available = [&](Value *V) { return primalValue(V, B); };
  RuleOperands Ops(B, I, Available, /*WholeBlockAvailable=*/true);
  auto WithoutTape = [&](Value *V) { return freeForRuleOf(I, V); };
  Ops.WithoutTape = WithoutTape;
  SmallVector<Value *, 4> Contributions;
  applyReverse(*Rule, Ops, Adjoint, Wanted, Contributions);
  for (auto [U, Contribution] : zip(Operands, Contributions))
    accumulate(U->get(), Contribution, B);
  return Error::success();
}

const DerivativeRule *ReverseEmitter::ruleReversing(Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::PHI:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::Freeze:
  case Instruction::Load:
  case Instruction::Select:
    return nullptr;
  default:
    break;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    const CustomRule *Custom = customRuleOfCall(*Call, Req.Rules);
    if ((Custom && Custom->Pullback) || SplitCalls.count(Call))
      return nullptr;
  }
  return findRule(I);
}

void ReverseEmitter::moveAdjointsAlongEdge(BasicBlock &From, BasicBlock &To,
                                           IRBuilderBase &B) {
  // The phis of To take their incoming values at once: all adjoints are
  // read and consumed before any is added to an incoming value (which may
  // be another phi of To, the previous iteration's instance).
  SmallVector<std::tuple<PHINode *, unsigned, Value *>, 8> Moves;
  for (PHINode &Phi : To.phis())
    if (Activity->isActive(&Phi))
      for (Lane = 0; Lane < Req.Width; ++Lane)
        Moves.emplace_back(&Phi, Lane, loadAdjoint(&Phi, B));
  for (auto &[Phi, MoveLane, Adjoint] : Moves) {
    Lane = MoveLane;
    consumeAdjoint(Phi, B);
  }
  for (auto &[Phi, MoveLane, Adjoint] : Moves) {
    Lane = MoveLane;
    accumulate(Phi->getIncomingValueForBlock(&From), Adjoint, B);
  }
  Lane = 0;
  enterLoopsInReverse(From, To, B);
  B.CreateBr(ReverseOf[&From]);
}

void ReverseEmitter::emitFinalReturn(IRBuilderBase &B) {
  Type *RetTy = Derivative->getReturnType();
  if (RetTy->isVoidTy()) {
    FinalReturn = B.CreateRetVoid();
    return;
  }
  Value *Result = UndefValue::get(RetTy);
  unsigned Field = 0;
  if (Type *PrimalResult = Primal.getReturnType(); !PrimalResult->isVoidTy())
    Result = B.CreateInsertValue(Result,
                                 ResultSlot ? static_cast<Value *>(B.CreateLoad(
                                                  PrimalResult, ResultSlot))
                                            : PoisonValue::get(PrimalResult),
                                 Field++);
  for (Lane = 0; Lane < Req.Width; ++Lane)
    for (unsigned I = 0; I < Req.Args.size(); ++I)
      if (Req.isActive(I)) {
        // Adding +0.0 turns an untouched -0.0 into the 0 users expect.
        Argument *A = Derivative->getArg(I);
        Value *Zero = Constant::getNullValue(A->getType());
        Value *Adjoint = Activity->isActive(A)
                             ? B.CreateFAdd(loadAdjoint(A, B), Zero)
                             : Zero;
        Result = B.CreateInsertValue(Result, Adjoint, Field++);
      }
  Lane = 0;
  FinalReturn = B.CreateRet(Result);
}

void ReverseEmitter::branchBack(BasicBlock &BB, IRBuilderBase &B) {
  if (&BB == &Derivative->getEntryBlock())
    return emitFinalReturn(B);
  if (LoopState *L = LoopOfHeader.lookup(&BB))
    return branchBackFromHeader(*L, B);
  ArrayRef<BasicBlock *> Preds = UniquePreds[&BB];
  if (Preds.size() == 1)
    return moveAdjointsAlongEdge(*Preds.front(), BB, B);
  Value *From = enteringEdge(BB, B);
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *P : Preds) {
    BasicBlock *Edge = BasicBlock::Create(
        Derivative->getContext(), BB.getName() + ".rev.from." + P->getName(),
        Derivative);
    IRBuilder<> EdgeB(Edge);
    moveAdjointsAlongEdge(*P, BB, EdgeB);
    Edges.push_back(Edge);
  }
  SwitchInst *Switch = B.CreateSwitch(From, Edges.front(), Edges.size());
  for (auto [K, Edge] : enumerate(Edges))
    Switch->addCase(ConstantInt::get(cast<IntegerType>(From->getType()), K),
                    Edge);
}

Error ReverseEmitter::fillReverseBlock(BasicBlock &BB) {
  CurrentPrimal = &BB;
  IRBuilder<> B(ReverseOf[&BB]);
  // The seed enters after the seam, so that a split derivative's reverse
  // part takes it.
  if (Value *V = Returned.lookup(&BB))
    for (auto [SeedLane, Seed] : enumerate(Seeds)) {
      Lane = SeedLane;
      accumulate(V, Req.Split ? seedAfterSeam(B, Seed) : Seed, B);
    }
  for (Instruction &I : reverse(BB)) {
    if (I.isTerminator() || isa<PHINode>(I))
      continue;
    if (PreImageCopies.contains(&I)) {
      restoreLoopPreImage(I, B);
      continue;
    }
    bool Active = Activity->isActive(&I);
    for (Lane = 0; Lane < Req.Width; ++Lane)
      if (Error E = Active ? emitAdjoint(I, B) : emitMemoryAdjoint(I, B))
        return E;
    if (auto *Store = dyn_cast<StoreInst>(&I))
      restoreEachPreImage(*Store, B);
  }
  Lane = 0;
  branchBack(BB, B);
  return Error::success();
}

Expected<Function *> ReverseEmitter::run() {
  createSignatureAndClone();
  Verifying = verifyReverseSweeps() &&
              targetFacts(*Derivative->getParent()).ReportsAtRunTime;
  // Before the loads are sorted: the moved ones are then values of the
  // loops' preheaders (InvariantLoads.cpp).
  {
    LaterWrites Invariance(*Derivative, TLI, Req.ArgVectorData);
    hoistInvariantLoads(*Derivative, Invariance);
  }
  LoadWriters Writers;
  {
    LaterWrites Later(*Derivative, TLI, Req.ArgVectorData);
    // A split derivative's caller may write memory between its parts:
    // nothing is loaded again there.
    if (!Req.Split)
      Writers = Later.sortLoads();
    if (Error E = checkCustomPullbackMemory(Later))
      return std::move(E);
  }
  Unwritten = std::move(Writers.Unwritten);
  analyzeLoops();
  if (!InLoop.empty()) {
    TheTape.emplace(*Derivative);
    TheTape->setLaterWriters(std::move(Writers.LaterWriter));
  }

  localizeSharedMemory(*Derivative);
  auto Analysis =
      ActivityInfo::analyze(*Derivative, Req.Args, ResultIsFP, TLI, Req.Rules);
  if (!Analysis)
    return Analysis.takeError();
  Activity = std::move(*Analysis);
  AdjointSlots.resize(Req.Width);
  unsigned NextShadow = Primal.arg_size();
  for (unsigned L = 0; L < Req.Width; ++L) {
    LaneShadows.push_back(std::make_unique<ShadowMap>(*Derivative, *Activity,
                                                      DiffMode::Reverse, TLI));
    for (unsigned I = 0; I < Req.Args.size(); ++I)
      if (Req.Args[I] == ArgActivity::Dup) {
        Argument *Shadow = Derivative->getArg(NextShadow++);
        std::string LaneSuffix = Req.Width > 1 ? "." + std::to_string(L) : "";
        Shadow->setName(Primal.getArg(I)->getName() + ".shadow" + LaneSuffix);
        LaneShadows.back()->setShadow(Derivative->getArg(I), Shadow);
      }
    if (Error E = LaneShadows.back()->build())
      return std::move(E);
  }
  markUnwrittenTwins();
  if (Error E = splitCalls())
    return std::move(E);
  // After the activity analysis: the copies are not part of the primal.
  planPreImages(Writers.FewWriters);
  findValuesRulesRead();

  ReversePostOrderTraversal<Function *> RPO(Derivative);
  for (BasicBlock *BB : RPO) {
    if (!BB->hasName())
      BB->setName(PrimalBlocks.empty() ? "entry" : "bb");
    PrimalBlocks.push_back(BB);
  }
  for (BasicBlock *BB : reverse(PrimalBlocks))
    ReverseOf[BB] = BasicBlock::Create(Derivative->getContext(),
                                       BB->getName() + ".rev", Derivative);
  if (!Primal.getReturnType()->isVoidTy() && !Req.ResultUnused)
    ResultSlot = entrySlot(Primal.getReturnType(), "result", nullptr);
  for (BasicBlock *BB : PrimalBlocks) {
    recordIncomingEdges(*BB);
    if (auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator()))
      rewriteReturn(*Ret);
  }
  for (BasicBlock *BB : PrimalBlocks)
    if (Error E = fillReverseBlock(*BB))
      return std::move(E);
  if (Error E = flushLoopAccumulators())
    return std::move(E);

  IRBuilder<> AtReturn(FinalReturn);
  restoreFinalMemory(AtReturn);
  if (TheTape) {
    reserveTapeForLoops();
    TheTape->finalize();
    IRBuilder<> B(FinalReturn);
    TheTape->emitFree(B);
  }

  if (Error E = verifyGenerated(*Derivative))
    return std::move(E);
  factorAdjoints();
  simplifyDerivative(*Derivative);
  return Derivative;
}

Expected<Function *> emitReverse(const DiffRequest &Req, Function &Primal,
                                 const TargetLibraryInfo &TLI) {
  ReverseEmitter Emitter(Req, Primal, TLI);
  Expected<Function *> Derivative = Emitter.run();
  if (!Derivative)
    Emitter.discard();
  else
    (*Derivative)->addFnAttr(ReverseSweepAttr);
  return Derivative;
}

void ReverseEmitter::factorAdjoints() {
  SmallVector<AllocaInst *, 32> Slots;
  for (const auto &LaneSlots : AdjointSlots)
    for (const auto &[Value, Slot] : LaneSlots)
      Slots.push_back(Slot);
  SmallPtrSet<BasicBlock *, 16> Primal(PrimalBlocks.begin(),
                                       PrimalBlocks.end());
  factorCarriedAdjoints(*Derivative, Slots, Primal, [&](Instruction &At) {
    explainControl(At, "the adjoint this loop carries is computed for a unit "
                       "seed in each iteration and scaled once (one multiply "
                       "between iterations)");
  });
}

void ReverseEmitter::markUnwrittenTwins() {
  // The shadow twin of a pointer load no later write changes is unchanged
  // as well: shadow memory holds shadow pointers only where the primal
  // writes pointers (mirrored stores, copies), and whatever the reverse
  // sweep writes into it before the load's reversal (the restores of
  // later pointer stores, the reverses of later copies and memsets) lies
  // where a later primal write went -- never at a load proven unwritten.
  SmallVector<LoadInst *, 32> Loads(Unwritten.begin(), Unwritten.end());
  for (LoadInst *Load : Loads)
    if (Load->getType()->isPointerTy() && Activity->isShadowed(Load))
      for (auto &Lane : LaneShadows)
        if (auto *Twin = dyn_cast<LoadInst>(Lane->get(Load)))
          Unwritten.insert(Twin);
}

} // namespace slope
