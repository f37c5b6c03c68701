//===- Shadows.h - Shadow pointers in the primal sweep ----------*- C++ -*-===//
//
// Every shadowed pointer gets a twin that addresses the shadow memory, built
// next to it in the primal sweep: GEP ↔ GEP, phi ↔ phi, select ↔ select,
// alloca ↔ zeroed alloca, malloc/new ↔ zeroed calloc, pointer loaded from
// memory ↔ pointer loaded from the shadow memory, realloc ↔ shadow
// reallocation (HeapShadows.h). Pointers stored into
// shadowed memory store their shadow into the shadow memory.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_SHADOWS_H
#define SLOPE_CORE_SHADOWS_H

#include "Activity.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"

namespace slope {

class ShadowMap {
public:
  ShadowMap(llvm::Function &F, const ActivityInfo &Activity, DiffMode Mode,
            const llvm::TargetLibraryInfo &TLI)
      : F(F), Activity(Activity), Mode(Mode), TLI(TLI) {}

  void setShadow(llvm::Value *Pointer, llvm::Value *Shadow) {
    Shadows[Pointer] = Shadow;
  }

  /// Builds the twins of all shadowed pointers of F's primal code.
  llvm::Error build();

  /// The shadow of a shadowed pointer (null for a null pointer).
  llvm::Value *get(llvm::Value *Pointer) const;

  /// Heap shadows, by the primal allocation they mirror.
  const llvm::DenseMap<llvm::Value *, llvm::Value *> &heapShadows() const {
    return HeapShadows;
  }

  /// Shadows made by the primal's own allocator (they may end up in the
  /// caller's memory: a container passed in that grows), by allocation.
  const llvm::DenseMap<llvm::Value *, llvm::Value *> &
  primalAllocatorShadows() const {
    return PrimalAllocatorShadows;
  }

  /// Reverse mode: for each store of a pointer into the caller's memory,
  /// the shadow pointer its mirror overwrote. The reverse sweep puts it
  /// back, so the caller's shadow object ends as it began (holding the
  /// adjoints of what the function was given).
  const llvm::DenseMap<llvm::StoreInst *, llvm::Value *> &
  overwrittenShadowPointers() const {
    return OverwrittenShadowPointers;
  }

  /// For each reallocation with a shadow: the pointer it reallocates.
  const llvm::DenseMap<llvm::Value *, llvm::Value *> &reallocations() const {
    return Reallocations;
  }

private:
  /// Where a pointer may come from.
  struct Origins {
    llvm::SmallPtrSet<llvm::CallBase *, 4> Allocations; // made here
    bool CallerMemory = false; // loaded from memory the caller can see
    bool Other = false;
  };
  void collectOrigins(llvm::Value *Pointer, Origins &Out,
                      llvm::SmallPtrSetImpl<llvm::Value *> &Visited) const;
  Origins originsOf(llvm::Value *Pointer) const;
  /// Allocations whose shadow the caller may end up owning (stored into its
  /// memory, or released where a pointer of the caller's may be): their
  /// shadows come from the primal's allocator, not from Slope's.
  void findPrimalAllocated();
  /// Forward mode: releases the shadow of a pointer of the caller's (or of
  /// an allocation in findPrimalAllocated) as the primal releases it.
  void releaseLikePrimal(llvm::CallBase &Call, llvm::Value *Released);
  /// Reverse mode: stops at run time where the caller's storage is given
  /// up with seeds in its shadow.
  void checkNoSeedsReleased(llvm::CallBase &Call, llvm::Value *Released);
  llvm::Error buildTwin(llvm::Instruction &I);
  void mirrorPointerStore(llvm::StoreInst &Store);
  /// Whether \p Pointer may point into memory the caller can see.
  bool isCallerMemory(const llvm::Value *Pointer, unsigned Depth) const;
  void mirrorRelease(llvm::CallBase &Call, llvm::Value *Released);
  /// Whether \p Pointer's shadow is always a heap shadow made here (or
  /// null), so that it has a size header.
  bool hasHeapShadow(llvm::Value *Pointer,
                     llvm::SmallPtrSetImpl<llvm::Value *> &Visiting) const;
  /// Whether memory made in this function (\p Object) only ever holds
  /// pointers with heap shadows made here (or none): the shadows of the
  /// pointers loaded from it are those.
  bool holdsHeapShadowedPointers(
      llvm::Value *Object,
      llvm::SmallPtrSetImpl<llvm::Value *> &Visiting) const;

  llvm::Function &F;
  const ActivityInfo &Activity;
  DiffMode Mode;
  const llvm::TargetLibraryInfo &TLI;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Shadows;
  llvm::DenseMap<llvm::Value *, llvm::Value *> HeapShadows;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Reallocations;
  llvm::DenseMap<llvm::Value *, llvm::Value *> PrimalAllocatorShadows;
  llvm::DenseMap<llvm::StoreInst *, llvm::Value *> OverwrittenShadowPointers;
  llvm::SmallPtrSet<llvm::CallBase *, 4> PrimalAllocated;
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 4> Phis;
};

} // namespace slope

#endif
