//===- SharedMemory.h - Shadows of GPU shared memory ------------*- C++ -*-===//
//
// A __shared__ array (address space 3 on NVPTX and AMDGPU) is one per
// thread block. Its shadow is another __shared__ array, zeroed by the
// block when a derivative starts: every thread clears it, then all wait at
// a barrier, so no thread accumulates into it before it is clear. (A
// derivative that uses shared memory must therefore be reached by every
// thread of the block, as any code with __syncthreads() must.)
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_SHAREDMEMORY_H
#define SLOPE_CORE_SHAREDMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"

namespace slope {

/// Block-shared memory of a GPU module.
bool isSharedMemory(const llvm::GlobalVariable &GV);

/// Turns the constant expressions through which \p F reaches shared arrays
/// (at -O0 every access goes through an addrspacecast of the array) into
/// instructions of F, so that shadows can be built beside them.
void localizeSharedMemory(llvm::Function &F);

/// The shadow array of \p GV (made on first use).
llvm::GlobalVariable *sharedShadow(llvm::GlobalVariable &GV);

/// Zeroes \p Shadows at \p B, then waits for the whole block.
void clearSharedShadows(llvm::IRBuilderBase &B,
                        llvm::ArrayRef<llvm::GlobalVariable *> Shadows);

} // namespace slope

#endif
