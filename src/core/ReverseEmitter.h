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
