//===- ReverseLoops.cpp - Counters that drive reverse loops ---------------===//
//
// For a loop in canonical form the primal sweep counts iterations (0, 1,
// ...). When the reverse sweep enters the loop -- through the reverse of an
// exit edge -- its counter starts at the last iteration; the reverse of the
// header goes back to the latch and counts down, or leaves through the
// preheader at iteration 0. No edge of such a header is taped, and
// induction variables start + step·i are recomputed from the counter
// instead of taped.
//
//===----------------------------------------------------------------------===//
#include "ReverseEmitter.h"
#include "ReverseVerify.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace slope {

/// The constant by which \p Next, the value \p Phi takes around the
/// latch, steps it: an integer added, or bytes a pointer moves on.
static std::optional<int64_t> constantStep(PHINode &Phi, Value &Next) {
  if (Phi.getType()->isIntegerTy()) {
    auto *Add = dyn_cast<BinaryOperator>(&Next);
    if (!Add || Add->getOpcode() != Instruction::Add)
      return std::nullopt;
    Value *Other = Add->getOperand(0) == &Phi   ? Add->getOperand(1)
                   : Add->getOperand(1) == &Phi ? Add->getOperand(0)
                                                : nullptr;
    if (auto *Step = dyn_cast_or_null<ConstantInt>(Other))
      return Step->getSExtValue();
    return std::nullopt;
  }
  auto *Gep = dyn_cast<GetElementPtrInst>(&Next);
  if (!Phi.getType()->isPointerTy() || !Gep || Gep->getPointerOperand() != &Phi)
    return std::nullopt;
  const DataLayout &DL = Phi.getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Phi.getType()), 0);
  if (!Gep->accumulateConstantOffset(DL, Offset) ||
      Offset.getSignificantBits() > 64)
    return std::nullopt;
  return Offset.getSExtValue();
}

const ReverseEmitter::Induction *ReverseEmitter::inductionOf(Instruction &I) {
  if (auto It = Inductions.find(&I); It != Inductions.end())
    return &It->second;
  // Shadow phis appear after analyzeLoops: every header phi is looked at
  // when first asked about.
  auto *Phi = dyn_cast<PHINode>(&I);
  LoopState *State = Phi ? LoopOfHeader.lookup(Phi->getParent()) : nullptr;
  if (!State || Phi->getNumIncomingValues() != 2 ||
      !NotInductions.insert(Phi).second)
    return nullptr;
  // start + step·i: a phi fed by a loop-invariant start and by itself
  // plus a constant around the latch (for a pointer, a constant number of
  // bytes further on).
  int FromPreheader = Phi->getBasicBlockIndex(State->Preheader);
  int FromLatch = Phi->getBasicBlockIndex(State->Latch);
  if (FromPreheader < 0 || FromLatch < 0)
    return nullptr;
  Value *Start = Phi->getIncomingValue(FromPreheader);
  auto *StartI = dyn_cast<Instruction>(Start);
  if (StartI && State->Blocks.contains(StartI->getParent()))
    return nullptr;
  std::optional<int64_t> Step =
      constantStep(*Phi, *Phi->getIncomingValue(FromLatch));
  if (!Step)
    return nullptr;
  NotInductions.erase(Phi);
  return &(Inductions[Phi] = {State, Start, *Step});
}

void ReverseEmitter::analyzeLoops() {
  DominatorTree DT(*Derivative);
  LoopInfo LI(DT);
  for (BasicBlock &BB : *Derivative)
    if (LI.getLoopFor(&BB))
      InLoop.insert(&BB);

  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Header = L->getHeader(), *Preheader = L->getLoopPreheader(),
               *Latch = L->getLoopLatch();
    if (!Preheader || !Latch || Preheader == Latch)
      continue; // reversed through taped edges instead
    auto State = std::make_unique<LoopState>();
    State->Header = Header;
    State->Preheader = Preheader;
    State->Latch = Latch;
    State->Blocks.insert(L->block_begin(), L->block_end());
    if (L->hasDedicatedExits())
      State->UniqueExit = L->getUniqueExitBlock();

    IRBuilder<> B(Header, Header->begin());
    Type *I64 = B.getInt64Ty();
    State->Iteration = B.CreatePHI(I64, 2, "iteration");
    IRBuilder<> AtLatch(Latch->getTerminator());
    Value *Next = AtLatch.CreateAdd(State->Iteration, AtLatch.getInt64(1),
                                    "iteration.next", /*HasNUW=*/true);
    State->Iteration->addIncoming(AtLatch.getInt64(0), Preheader);
    State->Iteration->addIncoming(Next, Latch);

    BasicBlock &Entry = Derivative->getEntryBlock();
    IRBuilder<> AtEntry(&Entry, Entry.getFirstInsertionPt());
    State->Counter = AtEntry.CreateAlloca(I64, nullptr, "reverse.iteration");

    Inductions[State->Iteration] = {State.get(), AtLatch.getInt64(0), 1};
    LoopOfHeader[Header] = State.get();
    Loops.push_back(std::move(State));
  }
  analyzeRecurrences(DT, LI);
  findGuardedEdges(DT, LI);
}

void ReverseEmitter::analyzeRecurrences(DominatorTree &DT, LoopInfo &LI) {
  AssumptionCache AC(*Derivative);
  TargetLibraryInfo LibraryInfo = TLI;
  ScalarEvolution SE(*Derivative, LibraryInfo, AC, DT, LI);
  // Canonical mode: an outer loop's recurrence is expanded from its
  // iteration phi (a canonical induction variable), never a new phi.
  SCEVExpander Expander(SE, Derivative->getDataLayout(), "taken.count");
  Type *I64 = Type::getInt64Ty(Derivative->getContext());
  for (const auto &State : Loops) {
    Loop *L = LI.getLoopFor(State->Header);
    if (L)
      findShiftedLoads(*State, *L, SE);
    // Leaving only from the latch, the loop took exactly this many
    // backedges when the reverse sweep enters it.
    if (!L || L->getExitingBlock() != State->Latch)
      continue;
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    bool OtherRecurrence = SCEVExprContains(Taken, [&](const SCEV *S) {
      auto *AddRec = dyn_cast<SCEVAddRecExpr>(S);
      return AddRec && !LoopOfHeader.count(AddRec->getLoop()->getHeader());
    });
    if (isa<SCEVCouldNotCompute>(Taken) || OtherRecurrence ||
        !Expander.isSafeToExpand(Taken))
      continue;
    Instruction *At = State->Preheader->getTerminator();
    State->TakenCount =
        Expander.expandCodeFor(SE.getTruncateOrZeroExtend(Taken, I64), I64, At);
  }
}

void ReverseEmitter::findShiftedLoads(LoopState &State, Loop &L,
                                      ScalarEvolution &SE) {
  for (PHINode &Phi : State.Header->phis()) {
    if (Phi.getNumIncomingValues() != 2)
      continue;
    auto *First =
        dyn_cast<LoadInst>(Phi.getIncomingValueForBlock(State.Preheader));
    auto *Next = dyn_cast<LoadInst>(Phi.getIncomingValueForBlock(State.Latch));
    if (!First || !Next || !Unwritten.contains(First) ||
        !Unwritten.contains(Next) || First->getType() != Next->getType() ||
        L.contains(First))
      continue;
    auto *NextAddress =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Next->getPointerOperand()));
    if (!NextAddress || NextAddress->getLoop() != &L ||
        !NextAddress->isAffine())
      continue;
    auto *Step = dyn_cast<SCEVConstant>(NextAddress->getStepRecurrence(SE));
    if (!Step)
      continue;
    const SCEV *Before = SE.getMinusSCEV(NextAddress->getStart(), Step);
    if (Before != SE.getSCEV(First->getPointerOperand()))
      continue;
    ShiftedLoads[&Phi] = {&State, First, Step->getAPInt().getSExtValue()};
  }
}

bool ReverseEmitter::isShiftedLoadAvailable(Instruction &I, unsigned Depth) {
  auto *Phi = dyn_cast<PHINode>(&I);
  auto It = Phi ? ShiftedLoads.find(Phi) : ShiftedLoads.end();
  return It != ShiftedLoads.end() &&
         It->second.Loop->Blocks.contains(CurrentPrimal) &&
         availableWithoutTape(It->second.First->getPointerOperand(), Depth);
}

Value *ReverseEmitter::shiftedLoadValue(Instruction &I, IRBuilderBase &B) {
  const ShiftedLoad &Shifted = ShiftedLoads.find(cast<PHINode>(&I))->second;
  Value *Count = B.CreateLoad(B.getInt64Ty(), Shifted.Loop->Counter);
  Value *Address = B.CreateGEP(
      B.getInt8Ty(), primalValue(Shifted.First->getPointerOperand(), B),
      B.CreateMul(Count, B.getInt64(Shifted.StepBytes)));
  return B.CreateAlignedLoad(I.getType(), Address, Shifted.First->getAlign(),
                             I.getName() + ".again");
}

Value *ReverseEmitter::inductionValue(Instruction &I, IRBuilderBase &B) {
  const Induction &IV = *inductionOf(I);
  Value *Count = B.CreateLoad(B.getInt64Ty(), IV.Loop->Counter);
  Type *Ty = I.getType();
  if (Ty->isPointerTy())
    return B.CreateGEP(B.getInt8Ty(), primalValue(IV.Start, B),
                       B.CreateMul(Count, B.getInt64(IV.Step)),
                       I.getName() + ".redo");
  Value *Scaled = B.CreateMul(B.CreateSExtOrTrunc(Count, Ty),
                              ConstantInt::get(Ty, IV.Step, true));
  return B.CreateAdd(primalValue(IV.Start, B), Scaled, I.getName() + ".redo");
}

void ReverseEmitter::enterLoopsInReverse(BasicBlock &From, BasicBlock &To,
                                         IRBuilderBase &B) {
  for (const auto &L : Loops)
    if (L->Blocks.contains(&From) && !L->Blocks.contains(&To)) {
      // The trip count recomputed, when that needs no tape, else the
      // iteration at exit as the primal sweep recorded it.
      Value *Last;
      if (L->TakenCount && availableWithoutTape(L->TakenCount)) {
        explainControl(*L->Latch->getTerminator(),
                       "this loop's trip count is recomputed (no later "
                       "write may change what it reads)");
        Last = primalValue(L->TakenCount, B);
        if (Verifying)
          emitVerifyCheck(B, Last, primalValue(L->Iteration, B),
                          *L->Header->getFirstNonPHI(),
                          "(the loop's trip count) recomputed from its "
                          "operands");
      } else {
        Last = primalValue(L->Iteration, B);
      }
      B.CreateStore(Last, L->Counter);
    }
}

void ReverseEmitter::branchBackFromHeader(LoopState &L, IRBuilderBase &B) {
  LLVMContext &Ctx = Derivative->getContext();
  Value *Count = B.CreateLoad(B.getInt64Ty(), L.Counter);
  BasicBlock *Leave =
      BasicBlock::Create(Ctx, L.Header->getName() + ".rev.leave", Derivative);
  BasicBlock *Previous = BasicBlock::Create(
      Ctx, L.Header->getName() + ".rev.previous", Derivative);
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt64(0)), Leave, Previous);

  L.ReverseLeave = Leave;
  IRBuilder<> LeaveB(Leave);
  moveAdjointsAlongEdge(*L.Preheader, *L.Header, LeaveB);
  IRBuilder<> PreviousB(Previous);
  PreviousB.CreateStore(PreviousB.CreateSub(Count, PreviousB.getInt64(1)),
                        L.Counter);
  moveAdjointsAlongEdge(*L.Latch, *L.Header, PreviousB);
}

BasicBlock *ReverseEmitter::invariantLoopExit(const Instruction &I) const {
  // The outermost loop around the current block that does not contain I.
  // I dominates the current block, hence the loop's header and its exit.
  LoopState *Outer = nullptr;
  for (const auto &L : Loops)
    if (L->Blocks.contains(CurrentPrimal) &&
        !L->Blocks.contains(I.getParent()) &&
        (!Outer || L->Blocks.size() > Outer->Blocks.size()))
      Outer = L.get();
  return Outer ? Outer->UniqueExit : nullptr;
}

Value *ReverseEmitter::loopInvariantValue(Instruction &I, IRBuilderBase &B) {
  BasicBlock *Exit = invariantLoopExit(I);
  if (!Exit)
    return nullptr;
  // The reverse sweep enters the loop's reverse only through the reverse
  // of its exit block, which reads I from the tape into a slot.
  AllocaInst *&Slot = InvariantSlots[{&I, Exit}];
  if (!Slot) {
    Slot = entrySlot(I.getType(), I.getName() + ".invariant", nullptr);
    auto *Read = cast<Instruction>(TheTape->read(*Exit, *ReverseOf[Exit], &I));
    IRBuilder<> AtRead(Read->getParent(), std::next(Read->getIterator()));
    AtRead.CreateStore(Read, Slot);
  }
  return B.CreateLoad(I.getType(), Slot, I.getName() + ".invariant");
}

void ReverseEmitter::reserveTapeForLoops() {
  DominatorTree DT(*Derivative);
  LoopInfo LI(DT);
  AssumptionCache AC(*Derivative);
  TargetLibraryInfo LibraryInfo = TLI;
  ScalarEvolution SE(*Derivative, LibraryInfo, AC, DT, LI);
  SCEVExpander Expander(SE, Derivative->getDataLayout(), "tape.reserve");
  for (const auto &State : Loops) {
    Loop *L = LI.getLoopFor(State->Header);
    if (!L || L->getHeader() != State->Header || !L->isInnermost() ||
        !L->getLoopPreheader())
      continue;
    // Room, too, for one frame of every block outside the loop: a frame
    // pushed right after the loop would otherwise double (and copy) a tape
    // sized exactly for it.
    uint64_t Bytes = 0, Outside = 0;
    for (BasicBlock *BB : State->Blocks)
      Bytes += TheTape->frameBytes(*BB);
    for (BasicBlock *BB : PrimalBlocks)
      if (!State->Blocks.contains(BB))
        Outside += TheTape->frameBytes(*BB);
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (!Bytes || isa<SCEVCouldNotCompute>(Taken) ||
        !Expander.isSafeToExpand(Taken))
      continue;
    Type *I64 = Type::getInt64Ty(Derivative->getContext());
    const SCEV *Total = SE.getAddExpr(
        SE.getMulExpr(SE.getAddExpr(SE.getTruncateOrZeroExtend(Taken, I64),
                                    SE.getOne(I64)),
                      SE.getConstant(I64, Bytes)),
        SE.getConstant(I64, Outside));
    Instruction *At = L->getLoopPreheader()->getTerminator();
    IRBuilder<> B(At);
    TheTape->reserve(B, Expander.expandCodeFor(Total, I64, At));
    // Each block of an innermost loop runs at most once per iteration.
    for (BasicBlock *BB : State->Blocks)
      TheTape->markReserved(*BB);
  }
}

} // namespace slope
