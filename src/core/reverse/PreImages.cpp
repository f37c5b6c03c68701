//===- PreImages.cpp - Pre-images of bulk writes and of loops' stores -----===//
//
// A load in a loop whose memory only a few later writes may change would be
// taped once per execution. Instead the primal sweep may copy what those
// writes overwrite -- their pre-images -- to the heap, and the reverse sweep
// put each pre-image back where it reverses its write. Memory then holds,
// at the reverse of each such load, what the load read: the reverse sweep
// loads it again, with no test of where the address falls. Two kinds of
// writes have pre-images:
//
// - a memcpy/memmove/memset (the copy back into x at the end of each
//   product of a matrix-vector chain): one copy per execution of the write.
//   Its destination and length must have one value per call, and the load
//   must address the destination's object in whole elements or run more
//   often than the write (in a loop nested in the write's);
// - a store in a loop that steps through memory one element per iteration
//   (the update x[i] += dt * v[i] of a time step): one copy of the whole
//   range the loop's iterations store to -- its footprint, from scalar
//   evolution -- where the loop is entered, put back where the reverse
//   sweep leaves the loop. The store must run in every iteration (so the
//   footprint is memory the program writes, safe to read before), the
//   footprint must have one place and size per call (made of values from
//   outside loops and of loads no later write changes), and the load must
//   lie outside the loop. The copies pay off in time loops: the load must
//   run in a loop as deep as the store's, which lies inside another loop;
// - the same store where the load runs in a loop nested in the store's
//   (y[i] = sum of a[p] * x[col[p]] over a row, when y may overlap a or
//   x): what each execution overwrites is taped and put back where the
//   reverse sweep reverses that execution -- one entry per row instead of
//   one per element of the row. Its footprint is still needed, for the
//   memory the primal sweep leaves.
//
// Restoring is exact whatever else the reverse sweep does in between: each
// pre-image puts its bytes back as they were when it was taken, and the
// pre-images are put back in the reverse order of taking them, so memory at
// the reverse of a load is what it was at the load, byte for byte, wherever
// the load's bytes fall in the restored ranges.
// The memory the writes cover is saved as the primal sweep leaves it, and
// put back when the derivative returns.
//
//===----------------------------------------------------------------------===//
#include "LibC.h"
#include "ReverseEmitter.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace slope {

namespace {

/// Whether \p Pointer is \p Base plus whole multiples of \p Size bytes.
bool isWholeElementsFrom(Value *Pointer, Value *Base, uint64_t Size,
                         const DataLayout &DL) {
  while (Pointer != Base) {
    auto *GEP = dyn_cast<GEPOperator>(Pointer);
    if (!GEP)
      return false;
    unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
    MapVector<Value *, APInt> Variable;
    APInt Constant(Bits, 0);
    if (!GEP->collectOffset(DL, Bits, Variable, Constant) ||
        Constant.urem(Size) != 0 || any_of(Variable, [&](const auto &Term) {
          return Term.second.urem(Size) != 0;
        }))
      return false;
    Pointer = GEP->getPointerOperand();
  }
  return true;
}

/// Whether \p Load lies in a loop nested in every loop around \p Write,
/// and deeper: it runs more often.
bool runsMoreOften(LoadInst &Load, Instruction &Write, LoopInfo &LI) {
  Loop *LoadLoop = LI.getLoopFor(Load.getParent());
  Loop *WriteLoop = LI.getLoopFor(Write.getParent());
  return LoadLoop && LoadLoop != WriteLoop &&
         (!WriteLoop || WriteLoop->contains(LoadLoop));
}

} // namespace

bool ReverseEmitter::canRestoreBulkWrite(LoadInst &Load, MemIntrinsic &Write,
                                         DominatorTree &DT, LoopInfo &LI) {
  const DataLayout &DL = Derivative->getDataLayout();
  auto OncePerCall = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || !InLoop.contains(I->getParent());
  };
  // Where the primal sweep ends, the destination must be at hand (kept in
  // a slot, the pointer would look like data stored in the array).
  auto AtEveryReturn = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return !I || all_of(*Derivative, [&](BasicBlock &BB) {
      return !isa<ReturnInst>(BB.getTerminator()) ||
             DT.dominates(I, BB.getTerminator());
    });
  };
  uint64_t Size = DL.getTypeStoreSize(Load.getType());
  Value *Dest = Write.getRawDest();
  return Write.getParent() != Load.getParent() && isPowerOf2_64(Size) &&
         OncePerCall(Dest) && AtEveryReturn(Dest) &&
         OncePerCall(Write.getLength()) &&
         computeKnownBits(Write.getLength(), DL).countMinTrailingZeros() >=
             Log2_64(Size) &&
         (isWholeElementsFrom(Load.getPointerOperand(), Dest, Size, DL) ||
          runsMoreOften(Load, Write, LI));
}

std::optional<ReverseEmitter::Footprint>
ReverseEmitter::footprintOf(StoreInst &Store, ScalarEvolution &SE, LoopInfo &LI,
                            DominatorTree &DT) {
  Loop *L = LI.getLoopFor(Store.getParent());
  LoopState *State = L ? LoopOfHeader.lookup(L->getHeader()) : nullptr;
  // Values of pointer type are restored by the shadow's own rules.
  if (!State || !State->TakenCount || !Store.isSimple() ||
      Store.getValueOperand()->getType()->isPtrOrPtrVectorTy() ||
      !DT.dominates(Store.getParent(), State->Latch))
    return std::nullopt;
  // Every iteration runs to the latch, so every iteration stores: the
  // whole footprint is memory the program writes, safe to read at entry.
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (!isGuaranteedToTransferExecutionToSuccessor(&I))
        return std::nullopt;
  const DataLayout &DL = Derivative->getDataLayout();
  uint64_t Size = DL.getTypeStoreSize(Store.getValueOperand()->getType());
  // The address: a recurrence of the loop, plus terms the same in every
  // iteration that scalar evolution cannot tell are (a data pointer loaded
  // again in each iteration).
  const SCEV *Address = SE.getSCEV(Store.getPointerOperand());
  const auto *Rec = dyn_cast<SCEVAddRecExpr>(Address);
  if (const auto *Sum = dyn_cast<SCEVAddExpr>(Address))
    for (const SCEV *Term : Sum->operands())
      if (const auto *Found = dyn_cast<SCEVAddRecExpr>(Term)) {
        if (Rec)
          return std::nullopt;
        Rec = Found;
      }
  if (!Rec || Rec->getLoop() != L || !Rec->isAffine())
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  if (!Step || isa<SCEVCouldNotCompute>(Taken) ||
      Step->getAPInt().abs() != Size)
    return std::nullopt;
  Type *I64 = Type::getInt64Ty(Derivative->getContext());
  const SCEV *Count =
      SE.getAddExpr(SE.getZeroExtendExpr(Taken, I64), SE.getOne(I64));
  const SCEV *First = Step->getAPInt().isNegative()
                          ? Rec->evaluateAtIteration(Taken, SE)
                          : Rec->getStart();
  const SCEV *Low = Rec == Address
                        ? First
                        : SE.getAddExpr(SE.getMinusSCEV(Address, Rec), First);
  const SCEV *Bytes = SE.getMulExpr(Count, SE.getConstant(I64, Size));
  // One footprint per call (the slots at the ends of the sweeps hold it),
  // computed where the loop starts: its values there, or copies of them.
  Instruction *At = State->Preheader->getTerminator();
  auto Computable = [&](const SCEV *S) {
    return !SCEVExprContains(S, [&](const SCEV *Term) {
      auto *Leaf = dyn_cast<SCEVUnknown>(Term);
      return isa<SCEVAddRecExpr>(Term) ||
             (Leaf && !canMaterializeAt(Leaf->getValue(), *At, DT));
    });
  };
  SCEVExpander Expander(SE, DL, "pre.image");
  if (!Computable(Low) || !Computable(Bytes) || !Expander.isSafeToExpand(Low) ||
      !Expander.isSafeToExpand(Bytes))
    return std::nullopt;
  return Footprint{Low, Bytes, L};
}

bool ReverseEmitter::hasOneValuePerCall(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !InLoop.contains(I->getParent()))
    return true; // computed at most once per call
  if (Depth == 0)
    return false;
  // Memory no later write changes reads the same in every execution (a
  // write between two of them would follow the first).
  if (auto *Load = dyn_cast<LoadInst>(I))
    return Unwritten.contains(Load) &&
           hasOneValuePerCall(Load->getPointerOperand(), Depth - 1);
  if (isa<PHINode>(I) || I->mayReadOrWriteMemory() || I->mayHaveSideEffects())
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return hasOneValuePerCall(Op, Depth - 1); });
}

bool ReverseEmitter::canMaterializeAt(Value *V, Instruction &At,
                                      DominatorTree &DT) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, &At))
    return true;
  // A copy at At computes the same: one value per call, made of loads
  // and arithmetic that the loop runs in every iteration anyway.
  return InLoop.contains(I->getParent()) && !isa<PHINode>(I) &&
         hasOneValuePerCall(I) && all_of(I->operands(), [&](Value *Op) {
           return canMaterializeAt(Op, At, DT);
         });
}

Value *ReverseEmitter::materializeAt(Value *V, Instruction &At,
                                     DominatorTree &DT,
                                     DenseMap<Value *, Value *> &Copies) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, &At))
    return V;
  if (Value *Known = Copies.lookup(I))
    return Known;
  Instruction *Copy = I->clone();
  for (Use &Op : Copy->operands())
    Op.set(materializeAt(Op.get(), At, DT, Copies));
  Copy->insertBefore(&At);
  Copy->setName(I->getName() + ".before.loop");
  withoutReverse(Copy);
  Copies[I] = Copy;
  return Copy;
}

bool ReverseEmitter::canRestoreLoopStore(LoadInst &Load, StoreInst &Store,
                                         const Footprint &Where, LoopInfo &LI) {
  // The reverse sweep puts the footprint back where it leaves the loop:
  // the load must be reversed after that, outside the loop. The copies
  // pay off when the load runs as often as the store, and the loop runs
  // inside another (a time loop): the footprint is also saved and put
  // back once per call, which a single execution would not amortize.
  Loop *LoadLoop = LI.getLoopFor(Load.getParent());
  return !Where.L->contains(Load.getParent()) &&
         Load.getParent() != Where.L->getLoopPreheader() && LoadLoop &&
         LoadLoop->getLoopDepth() >= Where.L->getLoopDepth() &&
         Where.L->getLoopDepth() >= 2;
}

bool ReverseEmitter::canRestoreEachStore(LoadInst &Load, StoreInst &Store,
                                         const Footprint &Where, LoopInfo &LI) {
  // The reverse of the load's block finds every later execution of the
  // store put back; the store's own block is reversed as a whole, so the
  // load lies elsewhere. Each execution tapes one value: that pays off
  // where the load runs more often, in a loop inside the store's.
  Loop *LoadLoop = LI.getLoopFor(Load.getParent());
  return TheTape && Load.getParent() != Store.getParent() && LoadLoop &&
         LoadLoop != Where.L && Where.L->contains(LoadLoop);
}

void ReverseEmitter::planPreImages(
    const MapVector<LoadInst *, SmallVector<Instruction *, 2>> &FewWriters) {
  if (FewWriters.empty())
    return;
  DominatorTree DT(*Derivative);
  LoopInfo LI(DT);
  AssumptionCache AC(*Derivative);
  TargetLibraryInfo LibraryInfo = TLI;
  ScalarEvolution SE(*Derivative, LibraryInfo, AC, DT, LI);
  DenseMap<StoreInst *, std::optional<Footprint>> Footprints;
  auto FootprintOf = [&](StoreInst &Store) -> std::optional<Footprint> & {
    auto [It, New] = Footprints.try_emplace(&Store);
    if (New)
      It->second = footprintOf(Store, SE, LI, DT);
    return It->second;
  };
  for (auto &Entry : FewWriters) {
    LoadInst *Load = Entry.first;
    ArrayRef<Instruction *> Writers = Entry.second;
    if (!InLoop.contains(Load->getParent()) ||
        !availableWithoutTape(Load->getPointerOperand()))
      continue;
    // Per store writer: whether it is put back at each execution (else
    // once, where the reverse sweep leaves its loop).
    SmallVector<bool, 2> EachExecution;
    bool Restorable = all_of(Writers, [&](Instruction *W) {
      if (auto *Bulk = dyn_cast<MemIntrinsic>(W))
        return canRestoreBulkWrite(*Load, *Bulk, DT, LI);
      auto *Store = cast<StoreInst>(W);
      auto &Where = FootprintOf(*Store);
      if (!Where)
        return false;
      EachExecution.push_back(canRestoreEachStore(*Load, *Store, *Where, LI));
      return EachExecution.back() ||
             canRestoreLoopStore(*Load, *Store, *Where, LI);
    });
    if (!Restorable)
      continue;
    // Stores of loops apart from the load's loop write nothing within one
    // of its iterations: any block of that loop may load the value again.
    const SmallPtrSet<BasicBlock *, 16> *Region = nullptr;
    for (const auto &L : Loops)
      if (L->Blocks.contains(Load->getParent()) &&
          (!Region || L->Blocks.size() < Region->size()))
        Region = &L->Blocks;
    if (Region && any_of(Writers, [&](Instruction *W) {
          return !isa<StoreInst>(W) || Region->contains(W->getParent());
        }))
      Region = nullptr;
    PreImageLoads[Load] = Region;
    unsigned NextStore = 0;
    for (Instruction *W : Writers) {
      if (auto *Bulk = dyn_cast<MemIntrinsic>(W)) {
        if (!PreImages.count(W))
          copyBulkPreImage(*Bulk, LI);
        continue;
      }
      // A store put back at each execution serves every load; one put back
      // where its loop ends may gain the other kind for a load inside.
      auto *Store = cast<StoreInst>(W);
      auto Found = PreImages.find(Store);
      bool Each = EachExecution[NextStore++];
      if (Found != PreImages.end() && (Found->second.Overwritten || !Each))
        continue;
      if (Each)
        keepEachPreImage(*Store, *FootprintOf(*Store), SE, DT);
      else
        copyLoopPreImage(*Store, *FootprintOf(*Store), SE, DT);
    }
  }
}

void ReverseEmitter::copyBulkPreImage(MemIntrinsic &Write, LoopInfo &LI) {
  PreImage &Pre = PreImages[&Write];
  IRBuilder<> B(&Write);
  Value *Dest = Write.getRawDest();
  Value *Bytes = Write.getLength();
  // On the tape (see copyLoopPreImage), except in an innermost loop: room
  // for its frames is reserved where it starts, and a copy pushed between
  // them would take some of it.
  Loop *L = LI.getLoopFor(Write.getParent());
  if (TheTape && (!L || !L->isInnermost())) {
    Instruction *Last = Write.getPrevNode();
    Value *Room = TheTape->pushChunk(B, Bytes);
    B.CreateMemCpy(Room, MaybeAlign(), Dest, MaybeAlign(), Bytes);
    for (Instruction *I = Last ? Last->getNextNode()
                               : &Write.getParent()->front();
         I != &Write; I = I->getNextNode())
      withoutReverse(I);
  } else {
    Pre.Copy = cast<CallInst>(preImageMalloc(B, Bytes, "pre.image"));
    withoutReverse(
        B.CreateMemCpy(Pre.Copy, MaybeAlign(), Dest, MaybeAlign(), Bytes));
  }
  // How much the write covered, for the state the primal sweep leaves:
  // 0 until it runs.
  Pre.Bytes = entrySlot(B.getInt64Ty(), "bulk.bytes", B.getInt64(0));
  Pre.Final = entrySlot(B.getPtrTy(), "bulk.final", nullptr);
  withoutReverse(B.CreateStore(
      withoutReverse(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty())), Pre.Bytes));
}

std::pair<Value *, Value *>
ReverseEmitter::recordFootprint(StoreInst &Store, const Footprint &Where,
                                ScalarEvolution &SE, DominatorTree &DT) {
  PreImage &Pre = PreImages[&Store];
  if (Pre.Low)
    return {nullptr, nullptr};
  Instruction *At = Where.L->getLoopPreheader()->getTerminator();
  // Terms computed in the loop are copied before it.
  DenseMap<Value *, Value *> Copies;
  ValueToSCEVMapTy Before;
  for (const SCEV *S : {Where.Low, Where.Bytes})
    SCEVExprContains(S, [&](const SCEV *Term) {
      if (auto *Leaf = dyn_cast<SCEVUnknown>(Term))
        if (Value *Copy = materializeAt(Leaf->getValue(), *At, DT, Copies);
            Copy != Leaf->getValue())
          Before[Leaf->getValue()] = SE.getUnknown(Copy);
      return false; // visit every term
    });
  SCEVExpander Expander(SE, Derivative->getDataLayout(), "pre.image");
  IRBuilder<> B(At);
  Value *Low = Expander.expandCodeFor(
      SCEVParameterRewriter::rewrite(Where.Low, SE, Before), B.getPtrTy(), At);
  Value *Bytes = Expander.expandCodeFor(
      SCEVParameterRewriter::rewrite(Where.Bytes, SE, Before), B.getInt64Ty(),
      At);
  for (Instruction *I : Expander.getAllInsertedInstructions())
    withoutReverse(I);
  // One footprint per call: the slots keep it for the ends of the sweeps.
  Pre.Bytes = entrySlot(B.getInt64Ty(), "loop.bytes", B.getInt64(0));
  Pre.Low = entrySlot(B.getPtrTy(), "loop.low", nullptr);
  Pre.Final = entrySlot(B.getPtrTy(), "loop.final", nullptr);
  withoutReverse(B.CreateStore(Bytes, Pre.Bytes));
  withoutReverse(B.CreateStore(Low, Pre.Low));
  return {Low, Bytes};
}

void ReverseEmitter::copyLoopPreImage(StoreInst &Store, const Footprint &Where,
                                      ScalarEvolution &SE, DominatorTree &DT) {
  // The first kind this store gets: the footprint is new.
  auto [Low, Bytes] = recordFootprint(Store, Where, SE, DT);
  PreImage &Pre = PreImages[&Store];
  BasicBlock *Preheader = Where.L->getLoopPreheader();
  Instruction *At = Preheader->getTerminator();
  IRBuilder<> B(At);
  Instruction *Copy;
  if (TheTape) {
    // On the tape: the reverse sweep takes the copy back where it reverses
    // the copying, after it popped every frame pushed since (a thread's
    // kept tape buffer then serves the copies of the next gradient too).
    Instruction *Last = At->getPrevNode();
    Value *Room = TheTape->pushChunk(B, Bytes);
    Copy = B.CreateMemCpy(Room, MaybeAlign(), Low, MaybeAlign(), Bytes);
    for (Instruction *I = Last ? Last->getNextNode() : &Preheader->front();
         I != At; I = I->getNextNode())
      withoutReverse(I);
  } else {
    Pre.Copy = cast<CallInst>(preImageMalloc(B, Bytes, "loop.pre.image"));
    Copy = cast<Instruction>(withoutReverse(
        B.CreateMemCpy(Pre.Copy, MaybeAlign(), Low, MaybeAlign(), Bytes)));
  }
  LoopPreImageCopy[Copy] = &Store;
}

void ReverseEmitter::keepEachPreImage(StoreInst &Store, const Footprint &Where,
                                      ScalarEvolution &SE, DominatorTree &DT) {
  recordFootprint(Store, Where, SE, DT);
  IRBuilder<> B(&Store);
  auto *Overwritten = B.CreateAlignedLoad(Store.getValueOperand()->getType(),
                                          Store.getPointerOperand(),
                                          Store.getAlign(), "store.pre.image");
  Overwritten->setDebugLoc(Store.getDebugLoc());
  withoutReverse(Overwritten);
  PreImages[&Store].Overwritten = Overwritten;
}

Value *ReverseEmitter::withoutReverse(Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    PreImageCopies.insert(I);
  return V;
}

Value *ReverseEmitter::preImageMalloc(IRBuilderBase &B, Value *Bytes,
                                      const Twine &Name) {
  auto *Call = cast<CallInst>(withoutReverse(callMalloc(B, Bytes, Name)));
  withoutReverse(Call->getArgOperand(0)); // the conversion to size_t
  return Call;
}

void ReverseEmitter::saveFinalMemory(IRBuilderBase &B) {
  for (auto &[Write, Pre] : PreImages) {
    Value *Bytes = withoutReverse(B.CreateLoad(B.getInt64Ty(), Pre.Bytes));
    Value *Final =
        preImageMalloc(B, Bytes, Pre.Low ? "footprint.final" : "bulk.final");
    Value *Dest = Pre.Low ? withoutReverse(B.CreateLoad(B.getPtrTy(), Pre.Low))
                          : cast<MemIntrinsic>(Write)->getRawDest();
    withoutReverse(
        B.CreateMemCpy(Final, MaybeAlign(), Dest, MaybeAlign(), Bytes));
    withoutReverse(B.CreateStore(Final, Pre.Final));
  }
}

void ReverseEmitter::restoreFinalMemory(IRBuilderBase &B) {
  for (auto &[Write, Pre] : PreImages) {
    Value *Dest = Pre.Low
                      ? B.CreateLoad(B.getPtrTy(), Pre.Low)
                      : primalValue(cast<MemIntrinsic>(Write)->getRawDest(), B);
    Value *Bytes = B.CreateLoad(B.getInt64Ty(), Pre.Bytes);
    Value *Final = B.CreateLoad(B.getPtrTy(), Pre.Final);
    B.CreateMemCpy(Dest, MaybeAlign(), Final, MaybeAlign(), Bytes);
    callFree(B, Final);
  }
}

Value *ReverseEmitter::preImageValue(Instruction &I, IRBuilderBase &B) {
  auto *Load = cast<LoadInst>(&I);
  return B.CreateAlignedLoad(Load->getType(),
                             primalValue(Load->getPointerOperand(), B),
                             Load->getAlign(), Load->getName() + ".pre");
}

void ReverseEmitter::restorePreImage(MemIntrinsic &Write, IRBuilderBase &B) {
  auto Found = PreImages.find(&Write);
  if (Found == PreImages.end() || Lane > 0)
    return;
  CallInst *OnHeap = Found->second.Copy;
  Value *Bytes = primalValue(Write.getLength(), B);
  Value *Copy = OnHeap ? primalValue(OnHeap, B) : TheTape->popChunk(B, Bytes);
  B.CreateMemCpy(primalValue(Write.getRawDest(), B), MaybeAlign(), Copy,
                 MaybeAlign(), Bytes);
  if (OnHeap)
    callFree(B, Copy);
}

void ReverseEmitter::restoreEachPreImage(StoreInst &Store, IRBuilderBase &B) {
  auto Found = PreImages.find(&Store);
  if (Found == PreImages.end() || !Found->second.Overwritten)
    return;
  // The tape frame of the store's block holds what this execution
  // overwrote.
  TheTape->describeEntry(Found->second.Overwritten,
                         "what a store overwrites, put back where the reverse "
                         "sweep reverses the store");
  Value *Before =
      TheTape->read(*Store.getParent(), *ReverseOf[Store.getParent()],
                    Found->second.Overwritten);
  B.CreateAlignedStore(Before, primalValue(Store.getPointerOperand(), B),
                       Store.getAlign());
}

void ReverseEmitter::restoreLoopPreImage(Instruction &Copy, IRBuilderBase &B) {
  StoreInst *Store = LoopPreImageCopy.lookup(&Copy);
  if (!Store)
    return;
  // The footprint has one place and size per call: the slots hold them.
  PreImage &Pre = PreImages.find(Store)->second;
  Value *Bytes = B.CreateLoad(B.getInt64Ty(), Pre.Bytes);
  Value *Saved =
      Pre.Copy ? primalValue(Pre.Copy, B) : TheTape->popChunk(B, Bytes);
  B.CreateMemCpy(B.CreateLoad(B.getPtrTy(), Pre.Low), MaybeAlign(), Saved,
                 MaybeAlign(), Bytes);
  if (Pre.Copy)
    callFree(B, Saved);
}

} // namespace slope
