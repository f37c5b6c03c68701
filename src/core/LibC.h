//===- LibC.h - C library calls in generated code ---------------*- C++ -*-===//
#ifndef SLOPE_CORE_LIBC_H
#define SLOPE_CORE_LIBC_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// malloc(Bytes), the size converted to the target's size_t.
llvm::Value *callMalloc(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                        const llvm::Twine &Name = "");

/// free(Pointer).
void callFree(llvm::IRBuilderBase &B, llvm::Value *Pointer);

/// aligned_alloc(Alignment, Bytes rounded up to a multiple of Alignment).
llvm::Value *callAlignedAlloc(llvm::IRBuilderBase &B, llvm::Value *Alignment,
                              llvm::Value *Bytes, const llvm::Twine &Name = "");

} // namespace slope

#endif
