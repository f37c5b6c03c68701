//===- LaterWrites.h - Writes that may follow a point -----------*- C++ -*-===//
//
// A value loaded from memory that no later write changes is still in memory
// when the reverse sweep runs: reading it again there costs what reading it
// from the tape costs, without the tape's store and its memory.
//
// "Later" is every write that can execute after the load before the sweep
// turns: later in its block, after its loop, and in later iterations of
// every loop around it. Alias queries therefore run in LLVM's
// cross-iteration mode (x[i + 1] read in iteration i is x[i] written in
// iteration i + 1), and a write counts unless the CFG proves it cannot run
// after the load.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_LATERWRITES_H
#define SLOPE_CORE_LATERWRITES_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <memory>

namespace slope {

struct LoadWriters {
  /// Loads whose memory no write that may follow them can change.
  llvm::SmallPtrSet<llvm::LoadInst *, 32> Unwritten;
  /// Loads whose memory only a few writes that may follow them can change,
  /// each a simple store or a memcpy/memmove/memset: those writes (the
  /// reverse sweep may put back what they overwrite, see PreImages.cpp).
  /// In program order of the loads.
  llvm::MapVector<llvm::LoadInst *, llvm::SmallVector<llvm::Instruction *, 2>>
      FewWriters;
  /// For each other load, a later write that may change its memory.
  llvm::DenseMap<llvm::LoadInst *, llvm::Instruction *> LaterWriter;
};

/// The writes of a function that may change memory after a given point,
/// as far as alias analysis (BasicAA across iterations, TBAA, scoped
/// noalias where its scopes are declared outside every loop) and the CFG
/// can tell. Math library calls with derivative rules write only errno.
/// In GPU code other threads may write between the sweeps: every location
/// counts as written there.
class LaterWrites {
public:
  /// \p ArgVectorData: per parameter of \p F, the offsets of std::vector
  /// data pointers in the struct it points to (DiffRequest::ArgVectorData).
  LaterWrites(
      llvm::Function &F, const llvm::TargetLibraryInfo &TLI,
      llvm::ArrayRef<llvm::SmallVector<uint64_t, 4>> ArgVectorData = {});
  ~LaterWrites();

  /// Sorts the simple loads of the function by the later writes that may
  /// change their memory.
  LoadWriters sortLoads();

  /// A write other than \p At that may run after \p At and change
  /// \p Where, or null when there is none.
  llvm::Instruction *laterWriter(llvm::Instruction &At,
                                 const llvm::MemoryLocation &Where);

  /// Whether asking about \p Loads loads stays within the alias queries
  /// one function may cost (sortLoads answers nothing beyond them).
  bool affords(uint64_t Loads) const;

  /// A write inside \p L (in any of its iterations) that may change what
  /// \p Load reads, or null when there is none.
  llvm::Instruction *writerInLoop(llvm::LoadInst &Load, const llvm::Loop &L);

  /// The analyses of the function the queries use.
  llvm::DominatorTree &dominators();
  llvm::LoopInfo &loops();
  llvm::AssumptionCache &assumptions();

private:
  struct Analyses;
  std::unique_ptr<Analyses> A;
};

} // namespace slope

#endif
