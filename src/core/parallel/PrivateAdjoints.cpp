//===- PrivateAdjoints.cpp ------------------------------------------------===//
//
// For one outermost loop nest L of a region's reverse part and one array
// (the underlying object of its atomic adjoint adds), the addresses the
// adds touch over every iteration of the nest lie in [Lo, Hi): bounds of
// their ScalarEvolution recurrences, from the trip counts of the loops,
// computed before the nest (the reverse loops read their trip counts from
// the tape or the record). The thread zeroes a buffer of Hi - Lo bytes,
// adds into it, and at the nest's exits adds each nonzero element into the
// shared adjoint atomically.
//
//===----------------------------------------------------------------------===//
#include "PrivateAdjoints.h"
#include "AdjointWindows.h"
#include "FunctionAnalyses.h"
#include "OpenMP.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace slope {
namespace {

/// Fresh analyses of one function, rebuilt after each change.
struct Analyses : FunctionAnalyses {
  explicit Analyses(Function &F)
      : FunctionAnalyses(F), Basic(F.getDataLayout(), F, TLI, AC, &DT), AA(TLI),
        Batch(AA) {
    AA.addAAResult(Basic);
    AA.addAAResult(Scoped);
    // The access and the add may be in different iterations: never
    // compare addresses as if one iteration computed both.
    Batch.enableCrossIterationMode();
  }
  BasicAAResult Basic;
  ScopedNoAliasAAResult Scoped;
  AAResults AA;
  BatchAAResults Batch;
};

/// Inclusive bounds of a value over every iteration of a loop nest.
struct Bounds {
  const SCEV *Lo, *Hi;
};

/// At most this many run-time range tests guard one buffer.
constexpr unsigned MaxRunTimeChecks = 8;

/// The atomic adjoint adds of one nest into one array, and their bytes.
struct Group {
  Loop *Nest;
  const Value *Array;
  SmallVector<AtomicRMWInst *, 8> Adds;
  const SCEV *Lo = nullptr, *Hi = nullptr; // [Lo, Hi)
  /// Byte ranges of other accesses that only a test before the nest can
  /// tell apart from [Lo, Hi).
  SmallVector<std::pair<const SCEV *, const SCEV *>, 4> Checks;
};

class Planner {
public:
  Planner(Loop &Nest, Analyses &A)
      : Nest(Nest), A(A), DL(Nest.getHeader()->getDataLayout()) {}

  std::optional<Group> plan(const Value *Array, ArrayRef<AtomicRMWInst *> Adds);

private:
  std::optional<Bounds> boundsOf(const SCEV *S, unsigned Depth = 0);
  std::optional<std::pair<const SCEV *, const SCEV *>> rangeOf(Value *Pointer,
                                                               uint64_t Bytes);
  bool admitOthers(Group &G);
  bool isAligned(const SCEV *S, const SCEV *Base, unsigned Bits);

  Loop &Nest;
  Analyses &A;
  const DataLayout &DL;
};

std::optional<Bounds> Planner::boundsOf(const SCEV *S, unsigned Depth) {
  ScalarEvolution &SE = A.SE;
  if (Depth > 8)
    return std::nullopt;
  if (SE.isLoopInvariant(S, &Nest))
    return Bounds{S, S};
  if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S)) {
    const Loop *L = Rec->getLoop();
    if (!Nest.contains(L) || !Rec->isAffine())
      return std::nullopt;
    const SCEV *Step = Rec->getStepRecurrence(SE);
    const SCEV *Taken = SE.getBackedgeTakenCount(L);
    if (!SE.isLoopInvariant(Step, &Nest) || isa<SCEVCouldNotCompute>(Taken))
      return std::nullopt;
    std::optional<Bounds> Start = boundsOf(Rec->getStart(), Depth + 1);
    std::optional<Bounds> Trips = boundsOf(Taken, Depth + 1);
    if (!Start || !Trips)
      return std::nullopt;
    const SCEV *Span = SE.getMulExpr(
        SE.getTruncateOrZeroExtend(Trips->Hi, Step->getType()), Step);
    if (SE.isKnownNonNegative(Step))
      return Bounds{Start->Lo, SE.getAddExpr(Start->Hi, Span)};
    if (SE.isKnownNegative(Step))
      return Bounds{SE.getAddExpr(Start->Lo, Span), Start->Hi};
    // A step of unknown sign (a row length the reverse sweep reads from
    // the tape): the first and the last address, whichever is lower. An
    // affine address that does not wrap moves one way.
    if (!Rec->hasNoUnsignedWrap() && !Rec->hasNoSignedWrap() &&
        !S->getType()->isPointerTy())
      return std::nullopt;
    return Bounds{SE.getUMinExpr(Start->Lo, SE.getAddExpr(Start->Lo, Span)),
                  SE.getUMaxExpr(Start->Hi, SE.getAddExpr(Start->Hi, Span))};
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Lo, Hi;
    for (const SCEV *Op : Add->operands()) {
      std::optional<Bounds> B = boundsOf(Op, Depth + 1);
      if (!B)
        return std::nullopt;
      Lo.push_back(B->Lo);
      Hi.push_back(B->Hi);
    }
    return Bounds{SE.getAddExpr(Lo), SE.getAddExpr(Hi)};
  }
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S);
      Mul && Mul->getNumOperands() == 2 &&
      isa<SCEVConstant>(Mul->getOperand(0))) {
    std::optional<Bounds> B = boundsOf(Mul->getOperand(1), Depth + 1);
    const SCEV *Factor = Mul->getOperand(0);
    if (!B)
      return std::nullopt;
    const SCEV *Lo = SE.getMulExpr(Factor, B->Lo);
    const SCEV *Hi = SE.getMulExpr(Factor, B->Hi);
    if (SE.isKnownNonNegative(Factor))
      return Bounds{Lo, Hi};
    return Bounds{Hi, Lo};
  }
  return std::nullopt;
}

/// Whether \p S (an address, or a byte offset when not a pointer) is a
/// multiple of 2^Bits bytes from \p Base; minima and maxima are when all
/// their operands are.
bool Planner::isAligned(const SCEV *S, const SCEV *Base, unsigned Bits) {
  ScalarEvolution &SE = A.SE;
  if (auto *MinMax = dyn_cast<SCEVMinMaxExpr>(S))
    return all_of(MinMax->operands(),
                  [&](const SCEV *Op) { return isAligned(Op, Base, Bits); });
  if (S->getType()->isPointerTy()) {
    const SCEV *Offset = SE.getMinusSCEV(S, Base);
    if (!isa<SCEVCouldNotCompute>(Offset))
      return SE.getMinTrailingZeros(Offset) >= Bits;
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S))
    return all_of(Add->operands(),
                  [&](const SCEV *Op) { return isAligned(Op, Base, Bits); });
  return !S->getType()->isPointerTy() && SE.getMinTrailingZeros(S) >= Bits;
}

std::optional<std::pair<const SCEV *, const SCEV *>>
Planner::rangeOf(Value *Pointer, uint64_t Bytes) {
  const SCEV *Address = A.SE.getSCEV(Pointer);
  std::optional<Bounds> B = boundsOf(Address);
  if (!B)
    return std::nullopt;
  Type *IndexTy = DL.getIndexType(Pointer->getType());
  return std::pair(B->Lo,
                   A.SE.getAddExpr(B->Hi, A.SE.getConstant(IndexTy, Bytes)));
}

/// Whether every other access of the nest stays off the buffer's bytes, by
/// proof or by a run-time test added to \p G.
bool Planner::admitOthers(Group &G) {
  Instruction *Before = Nest.getLoopPreheader()->getTerminator();
  SCEVExpander Check(A.SE, DL, "slope.private");
  SmallPtrSet<const Instruction *, 8> Mine(G.Adds.begin(), G.Adds.end());
  for (BasicBlock *BB : Nest.blocks())
    for (Instruction &I : *BB) {
      if (Mine.contains(&I) || !I.mayReadOrWriteMemory())
        continue;
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        // Nothing that synchronizes or reaches memory: the additions must
        // reach the shared adjoints before any barrier.
        if (isa<DbgInfoIntrinsic>(Call) || Call->isLifetimeStartOrEnd() ||
            Call->getIntrinsicID() == Intrinsic::assume)
          continue;
        return false;
      }
      Value *Pointer = getLoadStorePointerOperand(&I);
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Pointer = RMW->getPointerOperand();
      if (!Pointer)
        return false; // cmpxchg, fence
      // The thread's stack holds no adjoints of shared memory; the tape and
      // the record, alias analysis tells apart.
      if (isa<AllocaInst>(getUnderlyingObject(Pointer, 12)) ||
          all_of(G.Adds, [&](AtomicRMWInst *Add) {
            return A.Batch.alias(MemoryLocation::get(&I),
                                 MemoryLocation::get(Add)) ==
                   AliasResult::NoAlias;
          }))
        continue;
      Type *Accessed = getLoadStoreType(&I);
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Accessed = RMW->getValOperand()->getType();
      auto Range = rangeOf(Pointer, DL.getTypeStoreSize(Accessed));
      if (!Range)
        return false;
      // Before or after the buffer's bytes in every iteration.
      const SCEV *Below = A.SE.getMinusSCEV(G.Lo, Range->second);
      const SCEV *Above = A.SE.getMinusSCEV(Range->first, G.Hi);
      bool Apart =
          (!isa<SCEVCouldNotCompute>(Below) &&
           A.SE.isKnownNonNegative(Below)) ||
          (!isa<SCEVCouldNotCompute>(Above) && A.SE.isKnownNonNegative(Above));
      if (Apart)
        continue;
      // The same array's adjoints, which the ranges do not keep apart.
      if (A.SE.getPointerBase(A.SE.getSCEV(Pointer)) ==
          A.SE.getPointerBase(
              A.SE.getSCEV(G.Adds.front()->getPointerOperand())))
        return false;
      // Another array's adjoints as far as anything here can tell (the
      // captured pointers may be equal): test the ranges before the nest.
      if (G.Checks.size() == MaxRunTimeChecks || !Nest.getExitBlock())
        return false;
      for (const SCEV *S : {Range->first, Range->second})
        if (!A.SE.isLoopInvariant(S, &Nest) ||
            !Check.isSafeToExpandAt(S, Before))
          return false;
      if (!is_contained(G.Checks, *Range))
        G.Checks.push_back(*Range);
    }
  return true;
}

std::optional<Group> Planner::plan(const Value *Array,
                                   ArrayRef<AtomicRMWInst *> Adds) {
  if (!Nest.getLoopPreheader() || !Nest.hasDedicatedExits())
    return std::nullopt;
  Group G{&Nest, Array, {}, nullptr, nullptr};
  Type *Element = Adds.front()->getValOperand()->getType();
  uint64_t Bytes = DL.getTypeStoreSize(Element);
  SmallVector<const SCEV *, 8> Los, His;
  for (AtomicRMWInst *Add : Adds) {
    if (Add->getValOperand()->getType() != Element)
      return std::nullopt;
    auto Range = rangeOf(Add->getPointerOperand(), Bytes);
    if (!Range)
      return std::nullopt;
    Los.push_back(Range->first);
    His.push_back(Range->second);
    G.Adds.push_back(Add);
  }
  G.Lo = A.SE.getUMinExpr(Los);
  G.Hi = A.SE.getUMaxExpr(His);
  // The buffer mirrors whole elements from Lo: every add, and every bound
  // Lo may be, must be a whole number of elements from the array's start.
  if (!isPowerOf2_64(Bytes))
    return std::nullopt;
  const SCEV *Base =
      A.SE.getPointerBase(A.SE.getSCEV(Adds.front()->getPointerOperand()));
  SmallVector<const SCEV *, 16> Aligned(Los.begin(), Los.end());
  for (AtomicRMWInst *Add : Adds)
    Aligned.push_back(A.SE.getSCEV(Add->getPointerOperand()));
  for (const SCEV *S : Aligned)
    if (!isAligned(S, Base, Log2_64(Bytes)))
      return std::nullopt;
  BasicBlock *Preheader = Nest.getLoopPreheader();
  SCEVExpander Check(A.SE, DL, "slope.private");
  for (const SCEV *S : {G.Lo, G.Hi})
    if (!A.SE.isLoopInvariant(S, &Nest) ||
        !Check.isSafeToExpandAt(S, Preheader->getTerminator()))
      return std::nullopt;
  if (!admitOthers(G))
    return std::nullopt;
  return G;
}

/// slope.merge.adjoints.<type>(shared, buffer, count): adds each nonzero
/// buffer element into the shared adjoints atomically.
Function *mergeFunction(Module &M, Type *Element) {
  std::string Name = "slope.merge.adjoints.";
  raw_string_ostream(Name) << *Element;
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  auto *Entry = BasicBlock::Create(Ctx, "entry", F);
  auto *Loop = BasicBlock::Create(Ctx, "element", F);
  auto *Add = BasicBlock::Create(Ctx, "add", F);
  auto *Next = BasicBlock::Create(Ctx, "next", F);
  auto *Done = BasicBlock::Create(Ctx, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpEQ(F->getArg(2), B.getInt64(0)), Done, Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(I64, 2);
  K->addIncoming(B.getInt64(0), Entry);
  Value *V = B.CreateLoad(Element, B.CreateGEP(Element, F->getArg(1), K));
  // Most elements a thread never touched stay zero: no atomic for them.
  B.CreateCondBr(B.CreateFCmpUNE(V, ConstantFP::getZero(Element)), Add, Next);
  B.SetInsertPoint(Add);
  B.CreateAtomicRMW(AtomicRMWInst::FAdd, B.CreateGEP(Element, F->getArg(0), K),
                    V, Align(M.getDataLayout().getTypeStoreSize(Element)),
                    AtomicOrdering::Monotonic);
  B.CreateBr(Next);
  B.SetInsertPoint(Next);
  Value *After = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpEQ(After, F->getArg(2)), Done, Loop);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// Copies \p Nest: the copy runs where \p Apart holds, the original
/// elsewhere; returns the copy and the blocks its exits go through.
Loop *versionNest(Loop &Nest, Analyses &A, Value *Apart, ValueToValueMapTy &Map,
                  SmallVectorImpl<BasicBlock *> &Exits) {
  BasicBlock *Exit = Nest.getExitBlock();
  formLCSSARecursively(Nest, A.DT, &A.LI, &A.SE);
  BasicBlock *Guard = Nest.getLoopPreheader();
  BasicBlock *Preheader = SplitBlock(Guard, Guard->getTerminator(), &A.DT,
                                     &A.LI, nullptr, "private.preheader");
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Copy = cloneLoopWithPreheader(Preheader, Guard, &Nest, Map, ".private",
                                      &A.LI, &A.DT, Blocks);
  remapInstructionsInBlocks(Blocks, Map);
  for (PHINode &Phi : Exit->phis())
    for (unsigned K = 0, E = Phi.getNumIncomingValues(); K < E; ++K) {
      BasicBlock *From = Phi.getIncomingBlock(K);
      if (!Nest.contains(From))
        continue;
      Value *In = Phi.getIncomingValue(K);
      Value *Copied = Map.lookup(In);
      Phi.addIncoming(Copied ? Copied : In, cast<BasicBlock>(Map[From]));
    }
  Guard->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(Map[Preheader]), Preheader, Apart, Guard);
  SmallVector<BasicBlock *, 4> Exiting;
  Copy->getExitingBlocks(Exiting);
  for (BasicBlock *From : Exiting)
    Exits.push_back(SplitEdge(From, Exit, &A.DT, &A.LI));
  return Copy;
}

void privatize(Group &G, Analyses &A) {
  Loop &Nest = *G.Nest;
  Module &M = *Nest.getHeader()->getModule();
  const DataLayout &DL = M.getDataLayout();
  Type *Element = G.Adds.front()->getValOperand()->getType();
  Type *Ptr = G.Adds.front()->getPointerOperand()->getType();
  Type *I64 = Type::getInt64Ty(M.getContext());
  SCEVExpander Expander(A.SE, DL, "slope.private");
  Instruction *At = Nest.getLoopPreheader()->getTerminator();
  auto Expand = [&](const SCEV *S) {
    return Expander.expandCodeFor(S, Ptr, At);
  };
  Value *Lo = Expand(G.Lo), *Hi = Expand(G.Hi);
  SmallVector<BasicBlock *, 4> Exits;
  if (G.Checks.empty()) {
    Nest.getUniqueExitBlocks(Exits);
  } else {
    IRBuilder<> B(At);
    Value *Apart = B.getTrue();
    for (auto [OtherLo, OtherHi] : G.Checks)
      Apart =
          B.CreateAnd(Apart, B.CreateOr(B.CreateICmpULE(Expand(OtherHi), Lo),
                                        B.CreateICmpULE(Hi, Expand(OtherLo))));
    ValueToValueMapTy Map;
    Loop *Copy = versionNest(Nest, A, Apart, Map, Exits);
    for (AtomicRMWInst *&Add : G.Adds)
      Add = cast<AtomicRMWInst>(Map[Add]);
    At = Copy->getLoopPreheader()->getTerminator();
  }
  IRBuilder<> B(At);
  Value *Bytes = B.CreatePtrDiff(B.getInt8Ty(), Hi, Lo, "private.bytes");
  Value *Count =
      B.CreateUDiv(Bytes, ConstantInt::get(I64, DL.getTypeStoreSize(Element)));
  // calloc: the kernel's zero pages for large buffers, touched only where
  // the thread adds.
  Value *Buffer =
      B.CreateCall(M.getOrInsertFunction("calloc", B.getPtrTy(), I64, I64),
                   {Count, ConstantInt::get(I64, DL.getTypeStoreSize(Element))},
                   "private.adjoints");
  for (AtomicRMWInst *Add : G.Adds) {
    IRBuilder<> In(Add);
    Value *Offset =
        In.CreatePtrDiff(In.getInt8Ty(), Add->getPointerOperand(), Lo);
    Value *Slot = In.CreateGEP(In.getInt8Ty(), Buffer, Offset);
    Value *Old = In.CreateAlignedLoad(Element, Slot, Add->getAlign());
    In.CreateAlignedStore(In.CreateFAdd(Old, Add->getValOperand()), Slot,
                          Add->getAlign());
    Add->eraseFromParent();
  }
  for (BasicBlock *Exit : Exits) {
    IRBuilder<> Out(&*Exit->getFirstInsertionPt());
    Out.CreateCall(mergeFunction(M, Element), {Lo, Buffer, Count});
    Out.CreateCall(
        M.getOrInsertFunction("free", Out.getVoidTy(), Out.getPtrTy()),
        {Buffer});
  }
}

/// The atomic adjoint adds of \p Nest, by the array they add to.
MapVector<const Value *, SmallVector<AtomicRMWInst *, 8>>
addsByArray(Loop &Nest) {
  MapVector<const Value *, SmallVector<AtomicRMWInst *, 8>> Result;
  for (BasicBlock *BB : Nest.blocks())
    for (Instruction &I : *BB)
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
          RMW && RMW->getOperation() == AtomicRMWInst::FAdd &&
          RMW->use_empty() && !RMW->isVolatile() &&
          RMW->getOrdering() == AtomicOrdering::Monotonic &&
          RMW->getValOperand()->getType()->isFloatingPointTy()) {
        const Value *Array = getUnderlyingObject(RMW->getPointerOperand(), 12);
        if (auto *Def = dyn_cast<Instruction>(Array); Def && Nest.contains(Def))
          continue; // the array itself changes within the nest
        Result[Array].push_back(RMW);
      }
  return Result;
}

} // namespace

unsigned privatizeAdjoints(Function &F) {
  unsigned Changed = 0;
  SmallPtrSet<const Value *, 8> Tried;
  for (bool Again = true; Again;) {
    Again = false;
    Analyses A(F);
    for (Loop *Nest : A.LI) {
      for (auto &[Array, Adds] : addsByArray(*Nest)) {
        if (!Tried.insert(Adds.front()).second)
          continue;
        std::optional<Group> G = Planner(*Nest, A).plan(Array, Adds);
        if (!G)
          continue;
        privatize(*G, A);
        ++Changed;
        Again = true; // the analyses are stale now
        break;
      }
      if (Again)
        break;
    }
  }
  return Changed;
}

PreservedAnalyses PrivateAdjointsPass::run(Function &F,
                                           FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(ReverseSweepAttr) || !runsInParallel(F))
    return PreservedAnalyses::all();
  FunctionPassManager Simplify;
  Simplify.addPass(LoopSimplifyPass());
  PreservedAnalyses Kept = Simplify.run(F, FAM);
  if (!privatizeAdjoints(F))
    return Kept;
  return PreservedAnalyses::none();
}

} // namespace slope
