//===- SourceTypes.h - What the source says about pointees ------*- C++ -*-===//
//
// The clang plugin knows each parameter's source-level pointee type; the
// pass asks it (through this hook) which floating-point type a dup'd
// parameter's data is made of. Without the plugin (opt), nothing is known
// and the core judges from the IR alone.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_SOURCETYPES_H
#define SLOPE_PASS_SOURCETYPES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Type.h"

#include <functional>

namespace slope {

/// (IR name of the target, parameter index) -> floating-point element type
/// of the pointee, or null.
using PointeeTypeProvider =
    std::function<llvm::Type *(llvm::StringRef, unsigned, llvm::LLVMContext &)>;

void setPointeeTypeProvider(PointeeTypeProvider Provider);

llvm::Type *sourcePointeeElementType(llvm::StringRef Target, unsigned Arg,
                                     llvm::LLVMContext &Context);

/// IR name -> whether the source marks the function SLOPE_INACTIVE.
using InactivityProvider = std::function<bool(llvm::StringRef)>;

void setInactivityProvider(InactivityProvider Provider);

bool isSourceInactive(llvm::StringRef Function);

} // namespace slope

#endif
