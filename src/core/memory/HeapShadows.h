//===- HeapShadows.h - Shadows of heap memory -------------------*- C++ -*-===//
//
// A heap shadow is zeroed memory with a 16-byte header in front of it: its
// size, so that realloc can be mirrored without knowing the old size, and
// the address to free (the header's own for calloc'd shadows; the start of
// the padding for aligned ones). The helpers are small internal functions
// emitted once per module; all of them accept null.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_HEAPSHADOWS_H
#define SLOPE_CORE_HEAPSHADOWS_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// A zeroed shadow of \p Bytes bytes, aligned to \p Alignment bytes when
/// given (as the primal is: accesses mirrored from it may assume that);
/// not \p Zeroed (and not aligned), as malloc leaves it: for a tape.
llvm::Value *allocateHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                                llvm::Value *Alignment = nullptr,
                                bool Zeroed = true);

void freeHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Shadow);

/// A zeroed shadow of \p Bytes bytes starting with the first min(old, new)
/// bytes of \p Old; \p Old is freed when \p ReleaseOld (forward mode), and
/// kept for the reverse sweep otherwise. Not \p Zeroed: the bytes past the
/// old ones are left as malloc leaves them (a tape's shadow in forward
/// mode, whose every entry is written before it is read).
llvm::Value *reallocateHeapShadow(llvm::IRBuilderBase &B, llvm::Value *Old,
                                  llvm::Value *Bytes, bool ReleaseOld,
                                  bool Zeroed = true);

/// The reverse of a reallocation: Old[i] += New[i] over their common
/// prefix, elementwise in \p Element; then New is freed.
void returnReallocatedAdjoints(llvm::IRBuilderBase &B, llvm::Value *Old,
                               llvm::Value *New, llvm::Type *Element);

} // namespace slope

#endif
