//===- UnwrittenMemory.h - Loads the reverse sweep may repeat ---*- C++ -*-===//
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
#ifndef SLOPE_CORE_UNWRITTENMEMORY_H
#define SLOPE_CORE_UNWRITTENMEMORY_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace slope {

struct LoadWriters {
  /// Loads whose memory no write that may follow them can change.
  llvm::SmallPtrSet<llvm::LoadInst *, 32> Unwritten;
  /// Loads whose memory only one memcpy/memmove/memset that may follow
  /// them can change, in program order.
  llvm::MapVector<llvm::LoadInst *, llvm::MemIntrinsic *> OnlyBulkWriter;
};

/// Sorts the simple loads of \p F by which later writes may change their
/// memory, as far as alias analysis (BasicAA across iterations, TBAA,
/// scoped noalias where its scopes are declared outside every loop) and
/// the CFG can tell. Math library calls with derivative rules write only
/// errno. Empty for GPU code, where other threads may write between the
/// sweeps.
LoadWriters findLoadWriters(llvm::Function &F,
                            const llvm::TargetLibraryInfo &TLI);

} // namespace slope

#endif
