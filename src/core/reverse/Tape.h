//===- Tape.h - Values the reverse sweep takes from inside loops *- C++ -*-===//
//
// A value computed inside a loop has one instance per iteration; the reverse
// sweep needs them in reverse order. The tape is a stack that grows
// geometrically: at the end of a primal block the values its reverse block
// needs are pushed as one frame, and the reverse block pops that frame on
// entry. One capacity check per frame; memory grows linearly with the number
// of block executions and is freed when the reverse sweep ends.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_TAPE_H
#define SLOPE_CORE_TAPE_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <string>

namespace slope {

/// The alias scope list of the tape's entries: reads of the tape carry it
/// as !alias.scope, and adjoint updates that alias analysis should tell
/// apart from them (atomic adds in OpenMP regions) as !noalias. The tape
/// is Slope's own memory, never a shadow.
llvm::MDNode *tapeEntriesScope(llvm::LLVMContext &Ctx);

/// Marks the allocations and reallocations of a tape's buffer.
inline constexpr const char *TapeGrowthMetadata = "slope.tape.growth";

class Tape {
public:
  /// Creates the tape's state (base, size, capacity) in \p F's entry block.
  explicit Tape(llvm::Function &F);

  /// \p V, available at the end of primal block \p Primal, as read back at
  /// the top of \p Reverse (the reverse block of Primal).
  llvm::Value *read(llvm::BasicBlock &Primal, llvm::BasicBlock &Reverse,
                    llvm::Value *V);

  /// Reserves room for \p Bytes more bytes at \p B's insertion point (used
  /// at loop entry when the trip count is known).
  void reserve(llvm::IRBuilderBase &B, llvm::Value *Bytes);

  /// Pushes at the end of \p Primal need no capacity check: room for all
  /// of them was reserved before they run (a loop with a known trip count).
  void markReserved(llvm::BasicBlock &Primal) { Reserved.insert(&Primal); }

  /// Bytes pushed by one execution of \p Primal (0 if nothing).
  uint64_t frameBytes(llvm::BasicBlock &Primal) const;

  /// Emits the pushes and pops recorded by read(). Call once, after the
  /// reverse blocks are complete; it splits primal blocks.
  void finalize();

  /// Pushes room for \p Bytes (an i64; rounded up to whole frames) at
  /// \p B's insertion point without a branch, so the primal's blocks stay
  /// as the planner saw them; returns where the room starts, valid until
  /// the next push. The reverse sweep takes it back with popChunk once
  /// every frame pushed after it is popped: for copies the reverse sweep
  /// reads where it reverses the point of the push (a thread's kept tape
  /// buffer then holds them from one gradient to the next, without fresh
  /// pages from the kernel).
  llvm::Value *pushChunk(llvm::IRBuilderBase &B, llvm::Value *Bytes);
  /// Pops the chunk of \p Bytes pushed last; returns where it starts.
  llvm::Value *popChunk(llvm::IRBuilderBase &B, llvm::Value *Bytes);

  /// Frees the tape's memory at \p B's insertion point.
  void emitFree(llvm::IRBuilderBase &B);

  /// For loads whose memory a later write may change, one such write:
  /// remarks say what it is.
  void
  setLaterWriters(llvm::DenseMap<llvm::LoadInst *, llvm::Instruction *> W) {
    LaterWriters = std::move(W);
  }

  /// What the emitters' own entry \p V holds, for remarks.
  void describeEntry(llvm::Value *V, std::string What) {
    Descriptions[V] = std::move(What);
  }

private:
  struct Frame {
    llvm::SmallVector<llvm::Value *, 8> Values;
    llvm::SmallVector<uint64_t, 8> Offsets;
    llvm::DenseMap<llvm::Value *, llvm::Value *> Reads;
    llvm::Instruction *Placeholder = nullptr;
    llvm::BasicBlock *Reverse = nullptr;
    uint64_t Bytes = 0;
  };

  uint64_t slotBytes(llvm::Type *Ty) const;
  llvm::Align slotAlign(llvm::Type *Ty) const;
  /// An analysis remark (-Rpass-analysis=slope) at the taped value.
  void explainEntry(llvm::Value *V);
  llvm::Function *growFunction();
  /// {base, capacity} slope.tape.ensure(base, capacity, needed): grows only
  /// when needed exceeds capacity.
  llvm::Function *ensureFunction();
  llvm::Value *chunkBytes(llvm::IRBuilderBase &B, llvm::Value *Bytes);
  /// Whether anything uses the buffer (frames or chunks).
  bool used() const { return !Frames.empty() || HasChunks; }
  void emitPush(llvm::BasicBlock &Primal, Frame &F);
  void emitPop(Frame &F);

  llvm::Function &F;
  llvm::AllocaInst *Base, *Size, *Capacity;
  /// The last of the state's initial stores (the kept buffer is taken
  /// after it).
  llvm::Instruction *InitEnd;
  llvm::MapVector<llvm::BasicBlock *, Frame> Frames;
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> Reserved;
  bool HasChunks = false;
  llvm::DenseMap<llvm::LoadInst *, llvm::Instruction *> LaterWriters;
  llvm::DenseMap<llvm::Value *, std::string> Descriptions;
};

} // namespace slope

#endif
