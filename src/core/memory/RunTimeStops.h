//===- RunTimeStops.h - Messages the generated code stops with --*- C++ -*-===//
//
// What Slope cannot check at compile time and would otherwise get wrong
// (a container's storage it cannot hand to the caller, seeds that would
// apply to moved values) stops the program with a message naming the
// function, on targets that can print (Target.h: ReportsAtRunTime).
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_RUNTIMESTOPS_H
#define SLOPE_CORE_RUNTIMESTOPS_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// void slope.escape.report(ptr message): prints it and aborts.
llvm::Function *runTimeStop(llvm::Module &M);

/// Emits a check that the first \p Bytes bytes of \p Memory (null: none)
/// are zero, stopping with \p Message otherwise.
void emitZeroCheck(llvm::IRBuilderBase &At, llvm::Value *Memory,
                   llvm::Value *Bytes, llvm::Value *Message);

} // namespace slope

#endif
