//===- ReverseEmitter.h - Reverse-mode generation (internal) ----*- C++ -*-===//
#ifndef SLOPE_CORE_REVERSEEMITTER_H
#define SLOPE_CORE_REVERSEEMITTER_H

#include "Activity.h"
#include "CloneInto.h"
#include "CustomRules.h"
#include "DiffRequest.h"
#include "LaterWrites.h"
#include "Shadows.h"
#include "Tape.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>
#include <set>
#include <string>

namespace slope {

struct DerivativeRule;

/// Whether the reverse sweep recomputes \p I rather than taping it.
bool isCheapToRecompute(const llvm::Instruction &I);

/// Builds one reverse-mode derivative; see ReverseEmitter.cpp.
class ReverseEmitter {
public:
  /// How the reverse sweep gets a primal value from inside a loop (see
  /// TapePlanner.cpp).
  enum class PrimalSource {
    Induction,
    Recompute,
    ShiftedLoad,
    LoopInvariant,
    LoadAgain,
    PreImage,
    Tape
  };

  ReverseEmitter(const DiffRequest &Req, llvm::Function &Primal,
                 const llvm::TargetLibraryInfo &TLI)
      : Req(Req), Primal(Primal), TLI(TLI) {}

  llvm::Expected<llvm::Function *> run();
  /// Removes what a failed run() left behind.
  void discard() {
    if (Derivative)
      discardGenerated(*Derivative);
  }

private:
  void createSignatureAndClone();
  void recordIncomingEdges(llvm::BasicBlock &BB);
  /// Blocks in loops whose entering edge a branch condition decides (see
  /// GuardedEdge); needs the loops' blocks (InLoop).
  void findGuardedEdges(llvm::DominatorTree &DT, llvm::LoopInfo &LI);
  /// The index of the edge that entered \p BB, at B in its reverse block.
  llvm::Value *enteringEdge(llvm::BasicBlock &BB, llvm::IRBuilderBase &B);
  void rewriteReturn(llvm::ReturnInst &Ret);
  llvm::Error fillReverseBlock(llvm::BasicBlock &BB);
  llvm::Error emitAdjoint(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// The derivative rule emitAdjoint reverses the active instruction \p I
  /// with, or null where it reverses \p I itself (phis, loads, selects,
  /// floating-point casts, freeze) or through a call's own derivative (a
  /// custom pullback, a split callee). The planner's dry run
  /// (findValuesRulesRead) asks the same question, so the two cannot
  /// disagree on which rules read what.
  const DerivativeRule *ruleReversing(llvm::Instruction &I);
  /// A call with a custom derivative: its pullback, fed \p Adjoint (null
  /// when the result is inactive or void).
  llvm::Error emitCustomReverse(llvm::CallBase &Call, const CustomRule &Rule,
                                llvm::Value *Adjoint, llvm::IRBuilderBase &B);
  /// A call that was not inlined, replaced by its augmented forward.
  struct SplitCall {
    llvm::Function *Reverse;
    llvm::SmallVector<ArgActivity, 8> Args;
    llvm::Value *Record;
  };
  /// Replaces the calls that were not inlined and take part in
  /// differentiation by calls of their callees' augmented forwards.
  llvm::Error splitCalls();
  /// The callee's reverse part, fed \p Adjoint (null when the result is
  /// inactive or void).
  llvm::Error emitSplitCallReverse(llvm::CallBase &Call, const SplitCall &Split,
                                   llvm::Value *Adjoint,
                                   llvm::IRBuilderBase &B);

  // Memory (ReverseMemory.cpp).
  /// Reverse code of instructions that are not active values but act on
  /// shadow memory: stores, memset/memcpy/memmove, heap allocations.
  llvm::Error emitMemoryAdjoint(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// x̄ stored in the shadow of the active load \p Load.
  void emitLoadAdjoint(llvm::LoadInst &Load, llvm::Value *Adjoint,
                       llvm::IRBuilderBase &B);
  /// Bytes moved by an adjacent integer load and store (small struct
  /// copies at -O2): their adjoints move back as floating-point data.
  llvm::Error emitIntegerCopyAdjoint(llvm::StoreInst &Store,
                                     llvm::LoadInst &Source,
                                     llvm::IRBuilderBase &B);
  llvm::Error emitTransferAdjoint(llvm::MemTransferInst &Transfer,
                                  llvm::IRBuilderBase &B);
  /// memset p: the adjoints in shadow(p) are zero.
  void emitSetAdjoint(llvm::MemSetInst &Set, llvm::IRBuilderBase &B);
  /// The current lane's shadow of \p Pointer, usable at B.
  llvm::Value *shadowAt(llvm::Value *Pointer, llvm::IRBuilderBase &B) {
    return primalValue(shadows().get(Pointer), B);
  }
  ShadowMap &shadows() { return *LaneShadows[Lane]; }
  /// Adds the shadow twins of unwritten pointer loads to Unwritten.
  void markUnwrittenTwins();
  void branchBack(llvm::BasicBlock &BB, llvm::IRBuilderBase &B);
  void moveAdjointsAlongEdge(llvm::BasicBlock &From, llvm::BasicBlock &To,
                             llvm::IRBuilderBase &B);
  void emitFinalReturn(llvm::IRBuilderBase &B);

  llvm::AllocaInst *entrySlot(llvm::Type *Ty, const llvm::Twine &Name,
                              llvm::Constant *Init);
  llvm::AllocaInst *adjointSlot(llvm::Value *V);
  llvm::Value *loadAdjoint(llvm::Value *V, llvm::IRBuilderBase &B);
  /// Resets V's adjoint once its reverse code has read it.
  void consumeAdjoint(llvm::Value *V, llvm::IRBuilderBase &B);
  void accumulate(llvm::Value *V, llvm::Value *Contribution,
                  llvm::IRBuilderBase &B);
  /// V as usable at B's insertion point in the reverse sweep.
  llvm::Value *primalValue(llvm::Value *V, llvm::IRBuilderBase &B);

  // Loops (ReverseLoops.cpp).
  /// A loop in canonical form whose reverse is driven by a counter instead
  /// of taped edges, and whose induction variables are recomputed from it.
  struct LoopState {
    llvm::BasicBlock *Header = nullptr, *Preheader = nullptr, *Latch = nullptr;
    llvm::PHINode *Iteration = nullptr; ///< 0, 1, ... in the primal sweep
    llvm::AllocaInst *Counter =
        nullptr; ///< the iteration the reverse sweep is in
    llvm::SmallPtrSet<llvm::BasicBlock *, 16> Blocks;
    /// The loop's only exit block (exits are dedicated), or null.
    llvm::BasicBlock *UniqueExit = nullptr;
    /// The number of backedges taken, computed in the preheader from
    /// scalar evolution when the loop leaves only from its latch, or null.
    llvm::Value *TakenCount = nullptr;
    /// Where the reverse sweep leaves the loop's reverse.
    llvm::BasicBlock *ReverseLeave = nullptr;
  };
  // Adjoints of loads from an address outside the loop, summed in a
  // register across its reverse (LoopAccumulators.cpp).
  struct LoopAccumulator {
    LoopState *Loop = nullptr;
    llvm::AllocaInst *Sum = nullptr, *Shadow = nullptr;
  };
  /// The accumulator of \p Load in the current lane, made on first use;
  /// null when its adjoint must go to shadow memory each time.
  LoopAccumulator *loopAccumulatorFor(llvm::LoadInst &Load);
  /// Adds \p Adjoint to \p Load's accumulator; false when it has none.
  bool accumulateInLoop(llvm::LoadInst &Load, llvm::Value *Adjoint,
                        llvm::IRBuilderBase &B);
  /// Where the reverse sweep leaves each loop: the sums go to shadow memory.
  llvm::Error flushLoopAccumulators();
  llvm::DenseMap<std::pair<llvm::LoadInst *, unsigned>, LoopAccumulator>
      Accumulators;
  /// In order of creation: the flushes come out the same every time.
  llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, 4> AccumulatorOrder;
  struct Induction {
    LoopState *Loop;
    llvm::Value *Start;
    int64_t Step;
  };
  /// Finds the loops, marks their blocks, adds iteration counters.
  void analyzeLoops();
  /// See SeedFactoring.h.
  void factorAdjoints();
  /// Trip counts and shifted loads, from scalar evolution.
  void analyzeRecurrences(llvm::DominatorTree &DT, llvm::LoopInfo &LI);
  void findShiftedLoads(LoopState &State, llvm::Loop &L,
                        llvm::ScalarEvolution &SE);
  /// Reversing the edge From → To enters the reverse of the loops From is
  /// in and To is not: their counters start at the last iteration.
  void enterLoopsInReverse(llvm::BasicBlock &From, llvm::BasicBlock &To,
                           llvm::IRBuilderBase &B);
  /// The header's reverse: iteration 0 leaves the loop, any other goes on
  /// with the previous iteration.
  void branchBackFromHeader(LoopState &L, llvm::IRBuilderBase &B);
  /// An induction variable recomputed from the reverse counter, or null.
  llvm::Value *inductionValue(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// A value defined outside a loop around the current block, taped once
  /// per execution of the loop (in its exit block's frame) instead of once
  /// per iteration; null when the loop has several exits.
  llvm::Value *loopInvariantValue(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// The exit block of the outermost loop around the current block that
  /// does not contain \p I, when that loop has only one exit; else null.
  llvm::BasicBlock *invariantLoopExit(const llvm::Instruction &I) const;
  /// Reserves tape room for a whole innermost loop at its entry when
  /// scalar evolution knows the trip count; the loop's pushes then skip
  /// their capacity checks. Runs before Tape::finalize().
  void reserveTapeForLoops();

  llvm::SmallVector<std::unique_ptr<LoopState>, 4> Loops;
  llvm::DenseMap<llvm::BasicBlock *, LoopState *> LoopOfHeader;
  llvm::DenseMap<llvm::Value *, Induction> Inductions;
  /// Header phis found not to be inductions.
  llvm::SmallPtrSet<llvm::PHINode *, 8> NotInductions;
  /// The induction \p I is (looked for on first use), or null.
  const Induction *inductionOf(llvm::Instruction &I);
  /// A header phi that takes, in iteration c, the value its loop loaded in
  /// iteration c - 1 (GVN forwards a[i + 1] to the next iteration's a[i])
  /// and before the loop the load First: in iteration c it is the load at
  /// First's address + c·StepBytes, which the reverse sweep repeats when
  /// the memory is never written.
  struct ShiftedLoad {
    LoopState *Loop;
    llvm::LoadInst *First;
    int64_t StepBytes;
  };
  llvm::DenseMap<llvm::PHINode *, ShiftedLoad> ShiftedLoads;
  /// A shifted-load phi's value loaded again, or null when \p I is not one
  /// or that would need the tape.
  llvm::Value *shiftedLoadValue(llvm::Instruction &I, llvm::IRBuilderBase &B);
  bool isShiftedLoadAvailable(llvm::Instruction &I, unsigned Depth);

  const DiffRequest &Req;
  llvm::Function &Primal;
  const llvm::TargetLibraryInfo &TLI;
  llvm::Function *Derivative = nullptr;
  std::optional<ActivityInfo> Activity;
  /// Vector reverse mode (Req.Width lanes): each lane has its own seed,
  /// adjoints and shadows; the primal sweep and the tape serve all lanes.
  /// Reverse code is emitted once per lane for the lane in Lane.
  unsigned Lane = 0;
  llvm::SmallVector<std::unique_ptr<ShadowMap>, 1> LaneShadows;
  // The tape planner (TapePlanner.cpp).
  llvm::Value *recompute(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// The way the reverse of the current block gets \p I, defined in a
  /// loop around it: legality first, then cost.
  PrimalSource planInLoop(llvm::Instruction &I);
  /// \p I obtained the way \p Source says.
  llvm::Value *valueInLoop(llvm::Instruction &I, PrimalSource Source,
                           llvm::IRBuilderBase &B);
  /// -Rpass-analysis=slope: the decision, once per value and way.
  void explainPlan(llvm::Instruction &I, PrimalSource Source);
  /// -Rpass-analysis=slope at \p At: "in the reverse sweep of F <What>".
  void explainControl(llvm::Instruction &At, llvm::StringRef What);
  /// The same at the user's call that \p At was inlined from.
  void explainAtUserCall(llvm::Instruction &At, llvm::StringRef What);
  /// \p Cheap, in verify mode checked against \p I read from the tape.
  llvm::Value *checkedAgainstTape(llvm::Value *Cheap, llvm::Instruction &I,
                                  llvm::StringRef How, llvm::IRBuilderBase &B);
  /// Whether recomputing floating-point \p I (cheap) tapes no more than
  /// taping it would: at most one operand needs its own entry per
  /// iteration. Address and integer arithmetic is always recomputed.
  bool recomputingSavesTape(llvm::Instruction &I);
  /// (block, value): the derivative rules of the block's instructions read
  /// the value in the block's reverse, whatever else needs it; the rule of
  /// the value itself (a quotient's, a root's) apart.
  llvm::DenseSet<std::pair<const llvm::BasicBlock *, const llvm::Value *>>
      ReadByRules, ReadByOwnRule;
  /// Fills ReadByRules for the blocks in loops: each rule is applied once
  /// into a scratch function and the primal values it asks for recorded.
  void findValuesRulesRead();
  /// Whether the reverse of the current block has \p V without a tape
  /// entry of its own: available without tape, read by the block's rules
  /// anyway, or cheap arithmetic of such values (\p Depth deep).
  bool costsNoNewEntry(llvm::Value *V, unsigned Depth = 3);
  /// What a rule of \p I may take as free: its operands when they cost no
  /// new entry; its own result only when other rules read it too.
  bool freeForRuleOf(llvm::Instruction &I, llvm::Value *V);
  /// Whether the reverse sweep loads \p V again from memory no later
  /// write changes, or recomputes it, with no tape entry per iteration
  /// (looking \p Depth operands deep).
  bool availableWithoutTape(llvm::Value *V, unsigned Depth = 6);
  /// Legality of the ways that avoid the tape.
  bool isInductionHere(llvm::Instruction &I);
  bool isRepeatableLoad(llvm::Instruction &I);
  bool isPreImageLoad(llvm::Instruction &I);
  llvm::DenseSet<std::pair<llvm::Instruction *, PrimalSource>> Explained;
  std::set<std::pair<llvm::Instruction *, std::string>> ExplainedControl;
  /// Verify mode, where the target can report at run time.
  bool Verifying = false;
  // Pre-images of bulk writes and of stores in loops (PreImages.cpp).
  struct PreImage {
    /// The heap copy of what the write overwrites (primal sweep); null
    /// where the copy is a chunk of the tape.
    llvm::CallInst *Copy = nullptr;
    /// The write's length (i64) once it ran, else 0.
    llvm::AllocaInst *Bytes = nullptr;
    /// What the primal sweep left there, put back at the end.
    llvm::AllocaInst *Final = nullptr;
    /// For a store in a loop: where its footprint starts (the footprint
    /// has one place per call; a slot keeps it for the ends of the sweeps).
    llvm::AllocaInst *Low = nullptr;
    /// For a store put back at each of its executions: what it overwrites,
    /// loaded just before it (a tape entry of its block).
    llvm::LoadInst *Overwritten = nullptr;
  };
  /// Chooses the loads read from pre-images and emits the copies.
  void
  planPreImages(const llvm::MapVector<llvm::LoadInst *,
                                      llvm::SmallVector<llvm::Instruction *, 2>>
                    &Writers);
  /// Whether the reverse sweep can put back what \p Write overwrites
  /// before the reverse of \p Load (a memcpy/memmove/memset).
  bool canRestoreBulkWrite(llvm::LoadInst &Load, llvm::MemIntrinsic &Write,
                           llvm::DominatorTree &DT, llvm::LoopInfo &LI);
  /// The same for a store in a loop: its footprint over the whole loop is
  /// copied where the loop is entered and put back where the reverse sweep
  /// leaves it.
  struct Footprint {
    const llvm::SCEV *Low, *Bytes;
    llvm::Loop *L;
  };
  std::optional<Footprint> footprintOf(llvm::StoreInst &Store,
                                       llvm::ScalarEvolution &SE,
                                       llvm::LoopInfo &LI,
                                       llvm::DominatorTree &DT);
  /// Whether \p V takes one value in every execution during a call.
  bool hasOneValuePerCall(llvm::Value *V, unsigned Depth = 6);
  bool canRestoreLoopStore(llvm::LoadInst &Load, llvm::StoreInst &Store,
                           const Footprint &Where, llvm::LoopInfo &LI);
  /// Whether putting back what \p Store overwrites at each of its
  /// executions serves \p Load: it runs in a loop nested in the store's.
  bool canRestoreEachStore(llvm::LoadInst &Load, llvm::StoreInst &Store,
                           const Footprint &Where, llvm::LoopInfo &LI);
  void copyBulkPreImage(llvm::MemIntrinsic &Write, llvm::LoopInfo &LI);
  void copyLoopPreImage(llvm::StoreInst &Store, const Footprint &Where,
                        llvm::ScalarEvolution &SE, llvm::DominatorTree &DT);
  void keepEachPreImage(llvm::StoreInst &Store, const Footprint &Where,
                        llvm::ScalarEvolution &SE, llvm::DominatorTree &DT);
  /// Where the loop of \p Where starts: its footprint's start and size,
  /// kept in the slots of \p Store's pre-image; returns them there, or
  /// nulls when an earlier call recorded them.
  std::pair<llvm::Value *, llvm::Value *>
  recordFootprint(llvm::StoreInst &Store, const Footprint &Where,
                  llvm::ScalarEvolution &SE, llvm::DominatorTree &DT);
  /// Whether \p V can be computed at \p At: it is available there, or it
  /// has one value per call and copies of it and its operands can be.
  bool canMaterializeAt(llvm::Value *V, llvm::Instruction &At,
                        llvm::DominatorTree &DT);
  /// \p V at \p At: itself, or copies (without reverse code) of it and
  /// of its operands that are not available there.
  llvm::Value *
  materializeAt(llvm::Value *V, llvm::Instruction &At, llvm::DominatorTree &DT,
                llvm::DenseMap<llvm::Value *, llvm::Value *> &Copies);
  /// \p I loaded again (its memory restored by then), or null.
  llvm::Value *preImageValue(llvm::Instruction &I, llvm::IRBuilderBase &B);
  /// At the reverse of \p Write: its pre-image goes back.
  void restorePreImage(llvm::MemIntrinsic &Write, llvm::IRBuilderBase &B);
  /// At the reverse of \p Copy, the copy of a loop's pre-image (where the
  /// reverse sweep leaves the loop): it goes back. Else nothing.
  void restoreLoopPreImage(llvm::Instruction &Copy, llvm::IRBuilderBase &B);
  /// At the reverse of \p Store, when it is put back at each execution:
  /// what it overwrote goes back.
  void restoreEachPreImage(llvm::StoreInst &Store, llvm::IRBuilderBase &B);
  /// Marks \p V, added to a primal block for the pre-images, as having no
  /// reverse code; returns it.
  llvm::Value *withoutReverse(llvm::Value *V);
  /// malloc in a primal block, with no reverse code.
  llvm::Value *preImageMalloc(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                              const llvm::Twine &Name);
  /// Where the primal sweep ends: saves what the bulk writes left.
  void saveFinalMemory(llvm::IRBuilderBase &B);
  /// Where the derivative returns: puts it back.
  void restoreFinalMemory(llvm::IRBuilderBase &B);
  /// In program order of planning: the saves and restores at the ends of
  /// the sweeps come out the same in every compilation.
  llvm::MapVector<llvm::Instruction *, PreImage> PreImages;
  /// Loads whose later writers all have pre-images, with the blocks whose
  /// reverse may load them again: the load's own, or, when every writer
  /// is a store in a loop apart from the load's innermost loop, that
  /// loop's (no write of theirs falls within one of its iterations).
  llvm::DenseMap<llvm::LoadInst *,
                 const llvm::SmallPtrSet<llvm::BasicBlock *, 16> *>
      PreImageLoads;
  /// The copy (memcpy) of each store's loop pre-image.
  llvm::DenseMap<llvm::Instruction *, llvm::StoreInst *> LoopPreImageCopy;
  /// The instructions that take the pre-images: no reverse code.
  llvm::SmallPtrSet<llvm::Instruction *, 8> PreImageCopies;

  /// Loads of memory no later write changes (none for split
  /// derivatives); see LaterWrites.h.
  llvm::SmallPtrSet<llvm::LoadInst *, 32> Unwritten;
  /// A custom pullback reads memory through its pointer arguments when the
  /// reverse sweep runs: an error where a later write may have changed it.
  llvm::Error checkCustomPullbackMemory(LaterWrites &Later);
  bool ResultIsFP = false;
  /// One per lane when the result is floating-point.
  llvm::SmallVector<llvm::Argument *, 1> Seeds;
  llvm::AllocaInst *ResultSlot = nullptr;

  llvm::SmallVector<llvm::BasicBlock *, 16> PrimalBlocks;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> ReverseOf;
  /// For blocks with several predecessors: index of the entering edge.
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> CameFrom;
  /// A block with two predecessors, one of which (Guard) dominates it in
  /// the same loop and branches either to it or elsewhere: the edge that
  /// entered the block is the one the guard's condition chose, which the
  /// reverse sweep recomputes when it can do so without the tape (a loop
  /// guard `if (start < end)` before an inner loop).
  struct GuardedEdge {
    llvm::BranchInst *Guard;
  };
  llvm::DenseMap<llvm::BasicBlock *, GuardedEdge> GuardedEdges;
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 4>>
      UniquePreds;
  /// Per lane.
  llvm::SmallVector<llvm::DenseMap<llvm::Value *, llvm::AllocaInst *>, 1>
      AdjointSlots;
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> CacheSlots;
  /// Slots of loop-invariant values, by (value, the loop's exit block).
  llvm::DenseMap<std::pair<llvm::Value *, llvm::BasicBlock *>,
                 llvm::AllocaInst *>
      InvariantSlots;
  llvm::DenseMap<std::pair<llvm::Value *, llvm::BasicBlock *>, llvm::Value *>
      Reloaded;
  /// Primal blocks inside a loop: their values have one instance per
  /// iteration and reach the reverse sweep through the tape.
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> InLoop;
  std::optional<Tape> TheTape;
  /// The primal block whose reverse block is being filled.
  llvm::BasicBlock *CurrentPrimal = nullptr;
  llvm::ReturnInst *FinalReturn = nullptr;
  llvm::DenseMap<llvm::CallBase *, SplitCall> SplitCalls;
  /// The value each returning block of the primal sweep returned.
  llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> Returned;
  unsigned NextSeam = 0;
};

} // namespace slope

#endif
