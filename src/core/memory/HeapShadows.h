//===- HeapShadows.h - Shadows of heap memory -------------------*- C++ -*-===//
//
// A heap shadow is zeroed memory with its size in a 16-byte header in
// front of it, so that realloc can be mirrored without knowing the old
// size. The helpers are small internal functions emitted once per module;
// all of them accept null.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_HEAPSHADOWS_H
#define SLOPE_CORE_HEAPSHADOWS_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// A zeroed shadow of \p Bytes bytes.
llvm::Value *allocateHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Bytes);

void freeHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Shadow);

/// A zeroed shadow of \p Bytes bytes starting with the first min(old, new)
/// bytes of \p Old; \p Old is freed when \p ReleaseOld (forward mode), and
/// kept for the reverse sweep otherwise.
llvm::Value *reallocateHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Old,
                                  llvm::Value *Bytes, bool ReleaseOld);

/// The reverse of a reallocation: Old[i] += New[i] over their common
/// prefix, elementwise in \p Element; then New is freed.
void returnReallocatedAdjoints(llvm::IRBuilderBase &B, llvm::Value *Old,
                               llvm::Value *New, llvm::Type *Element);

/// Emits To[i] += From[i] over \p Bytes bytes of \p Element data (setting
/// From[i] to zero first when \p ClearFrom), as a loop; B continues after
/// it.
void accumulateElements(llvm::IRBuilderBase &B, llvm::Type *Element,
                        llvm::Value *To, llvm::Value *From, llvm::Value *Bytes,
                        bool ClearFrom);

} // namespace slope

#endif
