//===- InvariantLoads.cpp - Loads no write in their loop changes ----------===//
//
// A load inside a loop from an address computed before it reads the same
// value in every iteration when no write in the loop can change that
// memory. The optimizer moves such loads before the loop where its own
// alias analysis proves it. C++'s ownership rules, which LaterWrites knows
// and the optimizer does not, leave others inside: a simulation's time
// step read through the Domain reference by every node update while the
// update stores into the Domain's vectors (a std::vector's buffer holds no
// field of the struct that owns the vector). Inside the loop the load is a
// new value in every iteration, taped in every iteration where a write
// after the loop changes it; before the loop it is one value per execution
// of the loop, taped once, and its adjoint is summed across the loop.
//
// Legality, for every iteration: no write inside the loop (in any of its
// iterations, LaterWrites::writerInLoop) may change the memory, so every
// execution of the load reads what memory holds where the loop starts; and
// the load runs in the first iteration of every execution of the loop, or
// is safe to run there, so no load runs where the program ran none.
//
//===----------------------------------------------------------------------===//
#include "InvariantLoads.h"

#include "LaterWrites.h"

#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/MustExecute.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"

using namespace llvm;

namespace slope {

namespace {

void explainMove(LoadInst &Load, Function &F) {
  if (!F.getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled("slope"))
    return;
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis("slope", "InvariantLoad", &Load)
           << "this value is read once before its loop: no write in the "
              "loop may change it";
  });
}

/// Moves the loads of \p L that qualify to its preheader; returns how many.
unsigned hoistFromLoop(Loop &L, LaterWrites &Later, Function &F) {
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Preheader)
    return 0;
  Instruction *At = Preheader->getTerminator();
  DominatorTree &DT = Later.dominators();
  const DataLayout &DL = F.getDataLayout();
  SimpleLoopSafetyInfo Safety;
  Safety.computeLoopSafetyInfo(&L);
  unsigned Moved = 0;
  // Loads a write in the loop may change: that answer, the costly one,
  // does not change when other loads move.
  SmallPtrSet<LoadInst *, 16> Stay;
  // A load moved may make the address of another invariant (a data
  // pointer, then an element at a fixed index): until nothing moves.
  for (bool Again = true; Again;) {
    Again = false;
    SmallVector<LoadInst *, 16> Loads;
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        if (auto *Load = dyn_cast<LoadInst>(&I);
            Load && Load->isSimple() && !Stay.contains(Load))
          Loads.push_back(Load);
    for (LoadInst *Load : Loads) {
      Value *Address = Load->getPointerOperand();
      auto *AddressInLoop = dyn_cast<Instruction>(Address);
      if (AddressInLoop && !L.contains(AddressInLoop))
        AddressInLoop = nullptr;
      // (Address arithmetic moves only when it is safe to compute early.)
      bool Invariant =
          !AddressInLoop ||
          (!isa<LoadInst>(AddressInLoop) && !isa<PHINode>(AddressInLoop) &&
           L.hasLoopInvariantOperands(AddressInLoop) &&
           isSafeToSpeculativelyExecute(AddressInLoop));
      if (!Invariant)
        continue;
      if (Later.writerInLoop(*Load, L)) {
        Stay.insert(Load);
        continue;
      }
      bool Runs = Safety.isGuaranteedToExecute(*Load, &DT, &L);
      if (!Runs && (AddressInLoop ||
                    !isSafeToLoadUnconditionally(Address, Load->getType(),
                                                 Load->getAlign(), DL, At,
                                                 &Later.assumptions(), &DT)))
        continue;
      if (AddressInLoop)
        AddressInLoop->moveBefore(At);
      Load->moveBefore(At);
      explainMove(*Load, F);
      ++Moved;
      Again = true;
    }
  }
  return Moved;
}

} // namespace

unsigned hoistInvariantLoads(Function &F, LaterWrites &Later) {
  // Each load is asked about once per loop around it (the alias question
  // at most once): bounded like the later-write query, with a margin.
  uint64_t Questions = 0;
  for (BasicBlock &BB : F)
    if (Loop *L = Later.loops().getLoopFor(&BB))
      Questions += uint64_t(count_if(
                       BB, [](Instruction &I) { return isa<LoadInst>(I); })) *
                   L->getLoopDepth();
  if (!Later.affords(2 * Questions))
    return 0;
  unsigned Moved = 0;
  // Inner loops first: a load moved before an inner loop may move on
  // before the loop around it.
  SmallVector<Loop *, 8> Loops = Later.loops().getLoopsInPreorder();
  for (Loop *L : reverse(Loops))
    Moved += hoistFromLoop(*L, Later, F);
  return Moved;
}

} // namespace slope
