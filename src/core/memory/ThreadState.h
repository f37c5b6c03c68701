//===- ThreadState.h - Per-thread state kept between gradients --*- C++ -*-===//
//
// The kept tape and the kept shadow blocks live in thread-local globals
// that every module of a program shares, and are released when the thread
// ends (where the target runs code at thread exit: Linux with glibc).
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_MEMORY_THREADSTATE_H
#define SLOPE_CORE_MEMORY_THREADSTATE_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// The thread-local global \p Name of type \p Ty, zero-initialized,
/// linkonce_odr and hidden: one per thread, shared by the program's
/// modules.
llvm::GlobalVariable *perThreadGlobal(llvm::Module &M, llvm::StringRef Name,
                                      llvm::Type *Ty);

/// Registers \p Release (void(ptr), called with null) to run when the
/// current thread exits.
void callAtThreadExit(llvm::IRBuilderBase &B, llvm::Function *Release);

} // namespace slope

#endif
