//===- UnwrittenMemory.h - Loads the reverse sweep may repeat ---*- C++ -*-===//
//
// A value loaded from memory that nothing in the function writes is still in
// memory when the reverse sweep runs: reading it again there costs what
// reading it from the tape costs, without the tape's store and its memory.
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
  /// Loads whose memory no instruction of the function may write.
  llvm::SmallPtrSet<llvm::LoadInst *, 32> Unwritten;
  /// Loads whose memory only one memcpy/memmove/memset may write, in
  /// program order.
  llvm::MapVector<llvm::LoadInst *, llvm::MemIntrinsic *> OnlyBulkWriter;
};

/// Sorts the simple loads of \p F by who may write their memory, as far as
/// alias analysis (BasicAA, TBAA, scoped noalias) can tell. Math library
/// calls with derivative rules write only errno. Empty for GPU code, where
/// other threads may write between the sweeps.
LoadWriters findLoadWriters(llvm::Function &F,
                            const llvm::TargetLibraryInfo &TLI);

} // namespace slope

#endif
