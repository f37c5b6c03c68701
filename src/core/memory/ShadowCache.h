//===- ShadowCache.h - Heap shadows kept for the next gradient --*- C++ -*-===//
//
// A gradient allocates a heap shadow beside each heap allocation of the
// primal and frees it in the reverse sweep. With the primal's own blocks,
// whose release the reverse sweep defers, that is twice the primal's heap
// at once, freed at the end: glibc then gives the top of its heap back to
// the kernel (past 128 KiB) and the next gradient takes fresh pages again,
// one page fault each (an Eigen perceptron spent a third of its gradient in
// the kernel). So each thread keeps a few freed shadow blocks (up to
// MaxBlocks, MaxBytes in all) and hands them out again, zeroed, for shadows
// that fit; they are freed when the thread ends, as the kept tape is.
//
// Only where code runs at thread exit (Linux with glibc); elsewhere the
// helpers are never called.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_MEMORY_SHADOWCACHE_H
#define SLOPE_CORE_MEMORY_SHADOWCACHE_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// Whether the module's target keeps shadow blocks between gradients.
bool cachesShadows(const llvm::Module &M);

/// A kept block of at least \p Bytes bytes (and not much more), no longer
/// kept; null when none fits. Its contents are what its last use left.
llvm::Value *takeCachedBlock(llvm::IRBuilderBase &B, llvm::Value *Bytes);

/// Keeps the malloc'd block \p Base for a later shadow when there is room;
/// returns whether it was kept (else the caller frees it).
llvm::Value *keepBlock(llvm::IRBuilderBase &B, llvm::Value *Base);

} // namespace slope

#endif
