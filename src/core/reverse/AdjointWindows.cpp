//===- AdjointWindows.cpp - Neighbours' adjoints kept in registers --------===//
//
// The reverse sweep of `v[i] = f(u[i-1], u[i], u[i+1])` adds to du[i-1],
// du[i] and du[i+1] in every iteration: each element of du is loaded,
// added to and stored in three consecutive iterations, and the loop runs
// at the latency of the store-to-load round trip between them.
//
// The increments of one window -- `*p = *p + x` at addresses a fixed
// number of strides apart on the same moving address, in blocks that run
// in every iteration -- are rewritten so the elements in flight live in
// registers. At iteration t slot s holds the element the increment with
// offset s touches; the next iteration finds it in slot s-1. The highest
// slot is loaded where an increment first touches its element (as before),
// the lowest is stored where the last one does (as before), and the slots
// between are carried by phis; the preheader loads the elements the first
// iteration finds in flight, and the exit stores those still in flight.
// The additions are the original instructions in the original order, so
// results are bit for bit unchanged.
//
// Legality, for every iteration: the window's elements are touched only by
// its increments, so moving their loads and stores within the loop cannot
// change what any other access reads or writes. Every other access of the
// loop must touch none of the window's footprint (all elements any
// iteration touches): distinct identified objects, or byte ranges over the
// whole trip count that ScalarEvolution proves disjoint; otherwise a test
// of the ranges before the loop selects the windowed loop or a copy of the
// original. Calls that access memory, atomics and volatile accesses keep
// the loop as it is.
//
//===----------------------------------------------------------------------===//
#include "AdjointWindows.h"
#include "FunctionAnalyses.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <set>

using namespace llvm;

namespace slope {

namespace {

/// At most this many run-time range tests guard one windowed loop.
constexpr unsigned MaxRunTimeChecks = 8;
/// At most this many elements in flight: each holds a register.
constexpr size_t MaxSlots = 16;

/// One `*P = *P + X` of the loop.
struct Increment {
  LoadInst *Load;
  BinaryOperator *Add;
  StoreInst *Store;
  int64_t Slot = 0;
};

/// The bytes [Lo, Hi) an access covers over every iteration of its loop.
struct Range {
  const SCEV *Lo, *Hi;
};

/// The increments one loop keeps in registers, and what makes it legal.
struct Window {
  SmallVector<Increment, 8> Increments; // in program order
  int64_t Lowest = 0, Highest = 0;      // slots
  const SCEV *Start = nullptr;          // slot 0's address at iteration 0
  int64_t Stride = 0;                   // bytes per iteration
  SmallVector<std::pair<Range, Range>, 4> Checks; // ranges to test apart
};

using Analyses = FunctionAnalyses;

std::optional<Increment> asIncrement(StoreInst &Store) {
  auto *Add = dyn_cast<BinaryOperator>(Store.getValueOperand());
  if (!Store.isSimple() || !Add || !Add->hasOneUse() ||
      Add->getParent() != Store.getParent())
    return std::nullopt;
  // `*p - x` (the optimizer's form of adding a negated product) as well.
  unsigned Operands = Add->getOpcode() == Instruction::FAdd   ? 2
                      : Add->getOpcode() == Instruction::FSub ? 1
                                                              : 0;
  for (Value *Operand : drop_end(Add->operands(), 2 - Operands)) {
    auto *Load = dyn_cast<LoadInst>(Operand);
    if (Load && Load->isSimple() && Load->hasOneUse() &&
        Load->getPointerOperand() == Store.getPointerOperand() &&
        Load->getParent() == Store.getParent())
      return Increment{Load, Add, &Store};
  }
  return std::nullopt;
}

/// The loop's blocks that run in every iteration, in execution order.
SmallVector<BasicBlock *, 4> blocksOfEveryIteration(Loop &L,
                                                    DominatorTree &DT) {
  SmallVector<BasicBlock *, 4> Chain;
  for (DomTreeNode *N = DT.getNode(L.getLoopLatch()); N; N = N->getIDom()) {
    Chain.push_back(N->getBlock());
    if (N->getBlock() == L.getHeader())
      break;
  }
  std::reverse(Chain.begin(), Chain.end());
  return Chain;
}

class WindowPlanner {
public:
  WindowPlanner(Loop &L, Analyses &A)
      : L(L), A(A), SE(A.SE), DL(L.getHeader()->getDataLayout()) {}

  std::optional<Window> plan();

private:
  std::optional<Window> pickWindow(ArrayRef<Increment> All);
  std::optional<Range> rangeOf(const SCEV *Ptr, uint64_t Size,
                               bool EveryIteration);
  Range footprint(const Window &W, uint64_t Size);
  bool disjoint(Range X, Range Y);
  /// Whether X and Y provably share a byte.
  bool overlap(Range X, Range Y);
  bool admitOthers(Window &W, const SmallPtrSetImpl<Instruction *> &Mine);

  Loop &L;
  Analyses &A;
  ScalarEvolution &SE;
  const DataLayout &DL;
  const SCEV *BackedgeTaken = nullptr;
};

std::optional<Window> WindowPlanner::plan() {
  if (!L.isInnermost() || !L.getLoopPreheader() || !L.getLoopLatch() ||
      L.getExitingBlock() != L.getLoopLatch() || !L.getExitBlock())
    return std::nullopt;
  SmallVector<Increment, 16> All;
  for (BasicBlock *BB : blocksOfEveryIteration(L, A.DT))
    for (Instruction &I : *BB)
      if (auto *Store = dyn_cast<StoreInst>(&I))
        if (auto Inc = asIncrement(*Store))
          All.push_back(*Inc);
  if (All.size() < 2)
    return std::nullopt;
  BackedgeTaken = SE.getBackedgeTakenCount(&L);
  std::optional<Window> W = pickWindow(All);
  if (!W)
    return std::nullopt;
  SmallPtrSet<Instruction *, 16> Mine;
  for (Increment &Inc : W->Increments) {
    Mine.insert(Inc.Load);
    Mine.insert(Inc.Store);
  }
  if (!admitOthers(*W, Mine))
    return std::nullopt;
  return W;
}

/// The largest set of increments on one moving address, at contiguous
/// whole-stride offsets, each stored before the next one of its slot loads.
std::optional<Window> WindowPlanner::pickWindow(ArrayRef<Increment> All) {
  std::optional<Window> Best;
  for (const Increment &Ref : All) {
    auto *RefRec =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ref.Store->getPointerOperand()));
    if (!RefRec || RefRec->getLoop() != &L || !RefRec->isAffine())
      continue;
    auto *Stride = dyn_cast<SCEVConstant>(RefRec->getStepRecurrence(SE));
    Type *Ty = Ref.Load->getType();
    if (!Stride || Stride->getAPInt().getSignificantBits() > 32 ||
        Stride->getAPInt().abs().getZExtValue() !=
            DL.getTypeStoreSize(Ty).getFixedValue())
      continue;
    Window W;
    W.Start = RefRec->getStart();
    W.Stride = Stride->getAPInt().getSExtValue();
    std::set<int64_t> Slots;
    for (const Increment &Inc : All) {
      if (Inc.Load->getType() != Ty)
        continue;
      const SCEV *Offset =
          SE.getMinusSCEV(SE.getSCEV(Inc.Store->getPointerOperand()), RefRec);
      auto *Bytes = dyn_cast<SCEVConstant>(Offset);
      if (!Bytes || Bytes->getAPInt().getSignificantBits() > 32 ||
          Bytes->getAPInt().getSExtValue() % W.Stride)
        continue;
      Increment Member = Inc;
      Member.Slot = Bytes->getAPInt().getSExtValue() / W.Stride;
      Slots.insert(Member.Slot);
      W.Increments.push_back(Member);
    }
    W.Lowest = *Slots.begin();
    W.Highest = *Slots.rbegin();
    bool Contiguous = W.Highest - W.Lowest + 1 == int64_t(Slots.size());
    if (Slots.size() < 2 || Slots.size() > MaxSlots || !Contiguous)
      continue;
    // An increment that loads before the previous one of its slot stored
    // would add to a value the chain no longer holds.
    std::map<int64_t, StoreInst *> LastStore;
    bool Ordered = true;
    for (const Increment &Inc : W.Increments) {
      StoreInst *&Prev = LastStore[Inc.Slot];
      if (Prev && Prev->getParent() == Inc.Load->getParent() &&
          !Prev->comesBefore(Inc.Load))
        Ordered = false;
      Prev = Inc.Store;
    }
    if (Ordered && (!Best || W.Increments.size() > Best->Increments.size()))
      Best = std::move(W);
  }
  return Best;
}

std::optional<Range> WindowPlanner::rangeOf(const SCEV *Ptr, uint64_t Size,
                                            bool EveryIteration) {
  Type *IndexTy = DL.getIndexType(Ptr->getType());
  const SCEV *Bytes = SE.getConstant(IndexTy, Size);
  if (SE.isLoopInvariant(Ptr, &L))
    return Range{Ptr, SE.getAddExpr(Ptr, Bytes)};
  auto *Rec = dyn_cast<SCEVAddRecExpr>(Ptr);
  if (!Rec || Rec->getLoop() != &L || !Rec->isAffine() ||
      isa<SCEVCouldNotCompute>(BackedgeTaken))
    return std::nullopt;
  // The end points bound the addresses only if they do not wrap: an access
  // of every iteration stays within its object; others must say so.
  if (!EveryIteration && !Rec->hasNoUnsignedWrap())
    return std::nullopt;
  const SCEV *Step = Rec->getStepRecurrence(SE);
  const SCEV *Trips =
      SE.getTruncateOrZeroExtend(BackedgeTaken, Step->getType());
  const SCEV *End = SE.getAddExpr(Rec->getStart(), SE.getMulExpr(Trips, Step));
  if (SE.isKnownNonNegative(Step))
    return Range{Rec->getStart(), SE.getAddExpr(End, Bytes)};
  if (SE.isKnownNegative(Step))
    return Range{End, SE.getAddExpr(Rec->getStart(), Bytes)};
  return std::nullopt;
}

Range WindowPlanner::footprint(const Window &W, uint64_t Size) {
  Type *IndexTy = DL.getIndexType(W.Start->getType());
  auto At = [&](const SCEV *Steps) {
    return SE.getAddExpr(
        W.Start, SE.getMulExpr(Steps, SE.getConstant(IndexTy, W.Stride)));
  };
  const SCEV *Trips = SE.getTruncateOrZeroExtend(BackedgeTaken, IndexTy);
  const SCEV *Lowest = SE.getConstant(IndexTy, W.Lowest);
  const SCEV *Last = SE.getAddExpr(Trips, SE.getConstant(IndexTy, W.Highest));
  const SCEV *Bytes = SE.getConstant(IndexTy, Size);
  if (W.Stride > 0)
    return Range{At(Lowest), SE.getAddExpr(At(Last), Bytes)};
  return Range{At(Last), SE.getAddExpr(At(Lowest), Bytes)};
}

bool WindowPlanner::disjoint(Range X, Range Y) {
  for (auto [Before, After] : {std::pair(X, Y), std::pair(Y, X)}) {
    const SCEV *Gap = SE.getMinusSCEV(After.Lo, Before.Hi);
    if (!isa<SCEVCouldNotCompute>(Gap) && SE.isKnownNonNegative(Gap))
      return true;
  }
  return false;
}

bool WindowPlanner::overlap(Range X, Range Y) {
  for (auto [Before, After] : {std::pair(X, Y), std::pair(Y, X)}) {
    const SCEV *Gap = SE.getMinusSCEV(After.Lo, Before.Hi);
    if (isa<SCEVCouldNotCompute>(Gap) || !SE.isKnownNegative(Gap))
      return false;
  }
  return true;
}

/// Whether every other access of the loop stays off the window's elements,
/// by proof or by a run-time test added to \p W.
bool WindowPlanner::admitOthers(Window &W,
                                const SmallPtrSetImpl<Instruction *> &Mine) {
  const Value *Object =
      getUnderlyingObject(W.Increments[0].Store->getPointerOperand());
  uint64_t Size = DL.getTypeStoreSize(W.Increments[0].Load->getType());
  std::optional<Range> Footprint;
  SmallPtrSet<BasicBlock *, 8> Always;
  for (BasicBlock *BB : blocksOfEveryIteration(L, A.DT))
    Always.insert(BB);
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      // An iteration that stops halfway (a throw, a call that does not
      // return) would leave elements in registers, never stored.
      if (!isGuaranteedToTransferExecutionToSuccessor(&I))
        return false;
      if (!I.mayReadOrWriteMemory() || Mine.count(&I))
        continue;
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
        return false;
      Value *Ptr = getLoadStorePointerOperand(&I);
      const Value *Other = getUnderlyingObject(Ptr);
      if (Other != Object && isIdentifiedObject(Other) &&
          isIdentifiedObject(Object))
        continue;
      if (isa<SCEVCouldNotCompute>(BackedgeTaken))
        return false;
      if (!Footprint)
        Footprint = footprint(W, Size);
      Type *Ty = Load ? Load->getType() : Store->getValueOperand()->getType();
      std::optional<Range> Touched =
          rangeOf(SE.getSCEV(Ptr), DL.getTypeStoreSize(Ty), Always.count(BB));
      if (!Touched)
        return false;
      if (disjoint(*Touched, *Footprint) ||
          any_of(W.Checks, [&](const std::pair<Range, Range> &Check) {
            return Check.first.Lo == Touched->Lo &&
                   Check.first.Hi == Touched->Hi;
          }))
        continue;
      // A test that cannot pass (an in-place update's reverse reads the
      // elements the window holds) would only copy the loop.
      if (overlap(*Touched, *Footprint) || W.Checks.size() == MaxRunTimeChecks)
        return false;
      W.Checks.push_back({*Touched, *Footprint});
    }
  // The tests must be computable before the loop.
  SCEVExpander Expander(SE, DL, "slope.window");
  Instruction *At = L.getLoopPreheader()->getTerminator();
  for (auto &[X, Y] : W.Checks)
    for (const SCEV *S : {X.Lo, X.Hi, Y.Lo, Y.Hi})
      if (!Expander.isSafeToExpandAt(S, At))
        return false;
  return Expander.isSafeToExpandAt(W.Start, At);
}

/// Rewrites \p L's increments of \p W (already mapped into \p L) so the
/// elements in flight live in registers; \p Initial holds the addresses
/// of slots Lowest..Highest-1 at the first iteration.
void carryInRegisters(Loop &L, Window &W, ArrayRef<Value *> Initial) {
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Flush = SplitEdge(Latch, L.getExitBlock());
  Flush->setName(Header->getName() + ".window.flush");
  Type *Ty = W.Increments[0].Load->getType();
  Align Alignment = W.Increments[0].Store->getAlign();

  // The value each slot holds, as the iteration goes on.
  std::map<int64_t, Value *> Current;
  std::map<int64_t, PHINode *> Carried;
  IRBuilder<> AtPreheader(Preheader->getTerminator());
  for (int64_t Slot = W.Lowest; Slot < W.Highest; ++Slot) {
    LoadInst *First = AtPreheader.CreateAlignedLoad(
        Ty, Initial[Slot - W.Lowest], Alignment, "window.first");
    PHINode *Phi = PHINode::Create(Ty, 2, "window.slot");
    Phi->insertBefore(Header->getFirstNonPHIIt());
    Phi->addIncoming(First, Preheader);
    Carried[Slot] = Phi;
    Current[Slot] = Phi;
  }
  std::map<int64_t, StoreInst *> LastStore;
  for (Increment &Inc : W.Increments)
    LastStore[Inc.Slot] = Inc.Store;
  std::map<int64_t, Value *> FlushAddress;
  for (Increment &Inc : W.Increments) {
    auto It = Current.find(Inc.Slot);
    if (It != Current.end()) {
      Inc.Add->replaceUsesOfWith(Inc.Load, It->second);
      Inc.Load->eraseFromParent();
    }
    Current[Inc.Slot] = Inc.Add;
    if (Inc.Slot == W.Lowest && LastStore[Inc.Slot] == Inc.Store)
      continue; // the element leaves the window: stored as before
    if (LastStore[Inc.Slot] == Inc.Store)
      FlushAddress[Inc.Slot] = Inc.Store->getPointerOperand();
    Inc.Store->eraseFromParent();
  }
  for (auto &[Slot, Phi] : Carried)
    Phi->addIncoming(Current[Slot + 1], Latch);
  // Flush is outside the loop: its uses of loop values go through phis.
  IRBuilder<> AtFlush(Flush->getTerminator());
  auto Exported = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return V;
    PHINode *Phi = PHINode::Create(V->getType(), 1, V->getName() + ".lcssa");
    Phi->insertBefore(Flush->begin());
    Phi->addIncoming(V, Latch);
    return Phi;
  };
  for (int64_t Slot = W.Lowest + 1; Slot <= W.Highest; ++Slot)
    AtFlush.CreateAlignedStore(Exported(Current[Slot]),
                               Exported(FlushAddress[Slot]), Alignment);
}

void explainWindow(Loop &L, const Window &W) {
  Function &F = *L.getHeader()->getParent();
  if (!F.getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled("slope"))
    return;
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    // Reverse sweeps' loops carry no location; their increments' addresses
    // carry the primal's.
    DebugLoc Where = L.getStartLoc();
    for (const Increment &Inc : W.Increments)
      if (auto *Address = dyn_cast<Instruction>(Inc.Store->getPointerOperand()))
        if (!Where && Address->getDebugLoc())
          Where = Address->getDebugLoc();
    OptimizationRemarkAnalysis R("slope", "AdjointWindow", Where,
                                 L.getHeader());
    R << "the reverse sweep keeps the adjoints of "
      << std::to_string(W.Highest - W.Lowest + 1)
      << " neighbouring elements in registers across iterations";
    if (!W.Checks.empty())
      R << " (when a test before the loop finds no overlap)";
    return R;
  });
}

/// Windows \p L if it qualifies; returns the header of the loop that runs
/// the original code where a run-time test guards the window.
bool windowLoop(Loop &L, Analyses &A, SmallPtrSetImpl<BasicBlock *> &Done) {
  if (!L.isInnermost())
    return false;
  std::optional<Window> W = WindowPlanner(L, A).plan();
  if (!W)
    return false;
  formLCSSA(L, A.DT, &A.LI, &A.SE);
  explainWindow(L, *W);
  const DataLayout &DL = L.getHeader()->getDataLayout();
  // A block of its own before the preheader computes the tests.
  BasicBlock *Guard = L.getLoopPreheader();
  BasicBlock *Preheader = SplitBlock(Guard, Guard->getTerminator(), &A.DT,
                                     &A.LI, nullptr, "window.preheader");
  SCEVExpander Expander(A.SE, DL, "slope.window");
  Instruction *At = Guard->getTerminator();
  Type *PtrTy = W->Increments[0].Store->getPointerOperandType();
  Type *IndexTy = DL.getIndexType(PtrTy);
  SmallVector<Value *, 4> Initial;
  for (int64_t Slot = W->Lowest; Slot < W->Highest; ++Slot)
    Initial.push_back(Expander.expandCodeFor(
        A.SE.getAddExpr(W->Start, A.SE.getConstant(IndexTy, Slot * W->Stride)),
        PtrTy, At));
  Loop *Target = &L;
  if (!W->Checks.empty()) {
    IRBuilder<> B(At);
    Value *Apart = B.getTrue();
    auto Bound = [&](const SCEV *S) {
      return Expander.expandCodeFor(S, PtrTy, At);
    };
    for (auto &[X, Y] : W->Checks) {
      Value *XFirst = B.CreateICmpULE(Bound(X.Hi), Bound(Y.Lo));
      Value *YFirst = B.CreateICmpULE(Bound(Y.Hi), Bound(X.Lo));
      Apart = B.CreateAnd(Apart, B.CreateOr(XFirst, YFirst));
    }
    ValueToValueMapTy Map;
    SmallVector<BasicBlock *, 8> Blocks;
    Target = cloneLoopWithPreheader(Preheader, Guard, &L, Map, ".window", &A.LI,
                                    &A.DT, Blocks);
    remapInstructionsInBlocks(Blocks, Map);
    BasicBlock *Exit = L.getExitBlock();
    BasicBlock *Latch = L.getLoopLatch();
    for (PHINode &Phi : Exit->phis()) {
      Value *In = Phi.getIncomingValueForBlock(Latch);
      Value *Cloned = Map.lookup(In);
      Phi.addIncoming(Cloned ? Cloned : In, cast<BasicBlock>(Map[Latch]));
    }
    At->eraseFromParent();
    BranchInst::Create(cast<BasicBlock>(Map[Preheader]), Preheader, Apart,
                       Guard);
    for (Increment &Inc : W->Increments) {
      Inc.Load = cast<LoadInst>(Map[Inc.Load]);
      Inc.Add = cast<BinaryOperator>(Map[Inc.Add]);
      Inc.Store = cast<StoreInst>(Map[Inc.Store]);
    }
    Done.insert(L.getHeader());
  }
  Done.insert(Target->getHeader());
  carryInRegisters(*Target, *W, Initial);
  return true;
}

} // namespace

unsigned carryAdjointWindows(Function &F) {
  unsigned Changed = 0;
  SmallPtrSet<BasicBlock *, 16> Done;
  for (bool Again = true; Again;) {
    Again = false;
    Analyses A(F);
    for (Loop *L : A.LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !Done.insert(L->getHeader()).second)
        continue;
      if (windowLoop(*L, A, Done)) {
        ++Changed;
        Again = true; // the analyses are stale now
        break;
      }
    }
  }
  return Changed;
}

PreservedAnalyses AdjointWindowsPass::run(Function &F,
                                          FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(ReverseSweepAttr))
    return PreservedAnalyses::all();
  // The optimizer rotates loops only after this point; windows need the
  // exit test at the bottom (every iteration runs the whole body).
  FunctionPassManager Rotate;
  Rotate.addPass(createFunctionToLoopPassAdaptor(LoopRotatePass()));
  PreservedAnalyses Kept = Rotate.run(F, FAM);
  if (!carryAdjointWindows(F))
    return Kept;
  return PreservedAnalyses::none();
}

} // namespace slope
