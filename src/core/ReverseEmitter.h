//===- ReverseEmitter.h - Reverse-mode generation (internal) ----*- C++ -*-===//
#ifndef SLOPE_CORE_REVERSEEMITTER_H
#define SLOPE_CORE_REVERSEEMITTER_H

#include "Activity.h"
#include "DiffRequest.h"
#include "Shadows.h"
#include "Tape.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

namespace slope {

using namespace llvm;

/// Builds one reverse-mode derivative; see ReverseEmitter.cpp.
class ReverseEmitter {
public:
  ReverseEmitter(const DiffRequest &Req, Function &Primal,
                 const TargetLibraryInfo &TLI)
      : Req(Req), Primal(Primal), TLI(TLI) {}

  Expected<Function *> run();

private:
  void createSignatureAndClone();
  void recordIncomingEdges(BasicBlock &BB);
  void rewriteReturn(ReturnInst &Ret);
  Error fillReverseBlock(BasicBlock &BB);
  Error emitAdjoint(Instruction &I, IRBuilderBase &B);

  // Memory (ReverseMemory.cpp).
  /// Reverse code of instructions that are not active values but act on
  /// shadow memory: stores, memset/memcpy/memmove, heap allocations.
  Error emitMemoryAdjoint(Instruction &I, IRBuilderBase &B);
  /// x̄ stored in the shadow of the active load \p Load.
  void emitLoadAdjoint(LoadInst &Load, Value *Adjoint, IRBuilderBase &B);
  Error emitTransferAdjoint(MemTransferInst &Transfer, IRBuilderBase &B);
  Value *shadowAt(Value *Pointer, IRBuilderBase &B) {
    return primalValue(Shadows->get(Pointer), B);
  }
  void branchBack(BasicBlock &BB, IRBuilderBase &B);
  void moveAdjointsAlongEdge(BasicBlock &From, BasicBlock &To,
                             IRBuilderBase &B);
  void emitFinalReturn(IRBuilderBase &B);

  AllocaInst *entrySlot(Type *Ty, const Twine &Name, Constant *Init);
  AllocaInst *adjointSlot(Value *V);
  Value *loadAdjoint(Value *V, IRBuilderBase &B);
  /// Resets V's adjoint once its reverse code has read it.
  void consumeAdjoint(Value *V, IRBuilderBase &B);
  void accumulate(Value *V, Value *Contribution, IRBuilderBase &B);
  /// V as usable at B's insertion point in the reverse sweep.
  Value *primalValue(Value *V, IRBuilderBase &B);

  // Loops (ReverseLoops.cpp).
  /// A loop in canonical form whose reverse is driven by a counter instead
  /// of taped edges, and whose induction variables are recomputed from it.
  struct LoopState {
    BasicBlock *Header = nullptr, *Preheader = nullptr, *Latch = nullptr;
    PHINode *Iteration = nullptr; ///< 0, 1, ... in the primal sweep
    AllocaInst *Counter = nullptr; ///< the iteration the reverse sweep is in
    SmallPtrSet<BasicBlock *, 16> Blocks;
  };
  struct Induction {
    LoopState *Loop;
    Value *Start;
    int64_t Step;
  };
  /// Finds the loops, marks their blocks, adds iteration counters.
  void analyzeLoops();
  /// Reversing the edge From → To enters the reverse of the loops From is
  /// in and To is not: their counters start at the last iteration.
  void enterLoopsInReverse(BasicBlock &From, BasicBlock &To,
                           IRBuilderBase &B);
  /// The header's reverse: iteration 0 leaves the loop, any other goes on
  /// with the previous iteration.
  void branchBackFromHeader(LoopState &L, IRBuilderBase &B);
  /// An induction variable recomputed from the reverse counter, or null.
  Value *inductionValue(Instruction &I, IRBuilderBase &B);
  /// Reserves tape room for a whole innermost loop at its entry when
  /// scalar evolution knows the trip count. Runs after Tape::finalize().
  void reserveTapeForLoops();

  SmallVector<std::unique_ptr<LoopState>, 4> Loops;
  DenseMap<BasicBlock *, LoopState *> LoopOfHeader;
  DenseMap<Value *, Induction> Inductions;

  const DiffRequest &Req;
  Function &Primal;
  const TargetLibraryInfo &TLI;
  Function *Derivative = nullptr;
  std::optional<ActivityInfo> Activity;
  std::optional<ShadowMap> Shadows;
  Value *recompute(Instruction &I, IRBuilderBase &B);
  bool ResultIsFP = false;
  Argument *Seed = nullptr;
  AllocaInst *ResultSlot = nullptr;

  SmallVector<BasicBlock *, 16> PrimalBlocks;
  DenseMap<BasicBlock *, BasicBlock *> ReverseOf;
  /// For blocks with several predecessors: index of the entering edge.
  DenseMap<BasicBlock *, PHINode *> CameFrom;
  DenseMap<BasicBlock *, SmallVector<BasicBlock *, 4>> UniquePreds;
  DenseMap<Value *, AllocaInst *> AdjointSlots;
  DenseMap<Value *, AllocaInst *> CacheSlots;
  DenseMap<std::pair<Value *, BasicBlock *>, Value *> Reloaded;
  /// Primal blocks inside a loop: their values have one instance per
  /// iteration and reach the reverse sweep through the tape.
  SmallPtrSet<BasicBlock *, 16> InLoop;
  std::optional<Tape> TheTape;
  /// The primal block whose reverse block is being filled.
  BasicBlock *CurrentPrimal = nullptr;
  ReturnInst *FinalReturn = nullptr;
};

} // namespace slope

#endif
