//===- Allocations.h - Heap allocation and release calls --------*- C++ -*-===//
#ifndef SLOPE_CORE_ALLOCATIONS_H
#define SLOPE_CORE_ALLOCATIONS_H

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"

namespace slope {

/// An allocation call a shadow can mirror: malloc, calloc, aligned_alloc,
/// operator new and new[] (also nothrow and aligned). Shadows come from
/// calloc (aligned_alloc for alignments above 16) and go back with free.
struct Allocation {
  /// Bytes allocated; null for calloc (whose memory is already zero).
  llvm::Value *Size = nullptr;
  bool Zeroed = false;
  /// The alignment asked for (aligned_alloc, aligned new), else null.
  llvm::Value *Alignment = nullptr;
};

/// Classifies \p Call with TLI; nothing for other calls (realloc included:
/// its shadow could not be mirrored without the old size). Slope's own
/// heap shadows count too (slope.shadow.alloc, zeroed, released by
/// slope.shadow.free): a derivative differentiated again calls them.
std::optional<Allocation> asAllocation(const llvm::CallBase &Call,
                                       const llvm::TargetLibraryInfo &TLI);

/// Whether \p F is one of Slope's heap-shadow allocation or release
/// helpers, which stay calls where a derivative is differentiated again.
bool isSlopeHeapShadowCall(const llvm::Function &F);

/// For realloc(p, n): {p, n}.
std::optional<std::pair<llvm::Value *, llvm::Value *>>
asReallocation(const llvm::CallBase &Call, const llvm::TargetLibraryInfo &TLI);

/// The pointer \p Call releases (free, delete, delete[]), or null.
llvm::Value *releasedPointer(const llvm::CallBase &Call,
                             const llvm::TargetLibraryInfo &TLI);

/// Whether \p Call releases memory (releasedPointer's calls).
bool isRelease(const llvm::CallBase &Call, const llvm::TargetLibraryInfo &TLI);

/// The size a sized release call (delete(p, n)) gives, or null.
llvm::Value *releasedSize(const llvm::CallBase &Call,
                          const llvm::TargetLibraryInfo &TLI);

/// How memory from one allocator goes back: the unsized release of its
/// family, and for aligned forms the alignment it takes.
struct Release {
  llvm::StringRef Callee; // free, _ZdlPv, _ZdaPv or their aligned forms
  llvm::Value *Alignment = nullptr;
};

/// The release that matches allocation \p Call (asAllocation's calls).
std::optional<Release> releaseOfAllocation(const llvm::CallBase &Call,
                                           const llvm::TargetLibraryInfo &TLI);

/// The unsized form of release call \p Call (releasedPointer's calls):
/// memory of the same allocator but another size goes back with it.
std::optional<Release> unsizedRelease(const llvm::CallBase &Call,
                                      const llvm::TargetLibraryInfo &TLI);

/// Emits \p How applied to \p Pointer.
void emitRelease(llvm::IRBuilderBase &B, const Release &How,
                 llvm::Value *Pointer);

} // namespace slope

#endif
