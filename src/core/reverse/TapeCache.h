//===- TapeCache.h - The tape buffer a thread keeps between calls -*- C++
//-*-===//
//
// A large tape is fresh memory from the kernel on every call (glibc serves
// blocks over 32 MiB with mmap and returns them on free): the page faults
// cost more than the tape's traffic. Each thread therefore keeps its
// largest tape buffer (up to a bound) for its next gradient, as tape-based
// AD tools keep their stacks; it is freed at thread exit. Only where the
// C library can run code at thread exit (Linux with glibc); elsewhere, and
// in GPU code, the buffer is freed when the gradient returns.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_TAPECACHE_H
#define SLOPE_CORE_TAPECACHE_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// Whether gradients in \p M keep their tape buffer between calls.
bool keepsTapeBetweenCalls(const llvm::Module &M);

/// Takes the thread's kept buffer, if any: stores its base and capacity
/// into \p Base and \p Capacity (null and 0 when none is kept).
void emitTakeKeptTape(llvm::IRBuilderBase &B, llvm::Value *Base,
                      llvm::Value *Capacity);

/// Hands the buffer (\p Base, \p Capacity) back: kept for the thread's next
/// gradient when it is the largest so far and not too large, else freed.
void emitReleaseTape(llvm::IRBuilderBase &B, llvm::Value *Base,
                     llvm::Value *Capacity);

/// Whether \p F takes or hands back a kept buffer (never inlined before
/// forgetKeptTape has seen its calls).
bool isKeptTapeHelper(const llvm::Function &F);

/// A derivative differentiated again (nested inside a target) starts from
/// a tape of its own, as large as the last one reached, and frees it: the
/// kept buffer is per-thread memory outside the function, which Slope
/// cannot give a shadow. Rewrites \p F's calls of the kept-tape helpers
/// that way.
void forgetKeptTape(llvm::Function &F);

} // namespace slope

#endif
