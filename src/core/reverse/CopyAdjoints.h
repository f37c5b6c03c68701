//===- CopyAdjoints.h - The reverse of copies of bytes ----------*- C++ -*-===//
//
//   memcpy d, s, n      shadow(s) += shadow(d); shadow(d) = 0
//
// field by field: only the floating-point fields of the copied records
// carry adjoints; the shadows of integer and pointer bytes (a std::vector
// object's shadow holds its shadow buffer's address) stay as they are.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_COPYADJOINTS_H
#define SLOPE_CORE_COPYADJOINTS_H

#include "ByteLayout.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace slope {

/// The layout of an array of \p Element.
ByteLayout elementArrayLayout(llvm::Type *Element);

/// slope.{copy,move}.adjoint.<layout>(shadow dest, shadow source, bytes):
/// for each floating-point field in the first \p bytes: t = dest; dest = 0;
/// source += t. memcpy regions do not overlap, so that happens in place;
/// memmove goes through a temporary.
llvm::Function *transferAdjointFunction(llvm::Module &M,
                                        const ByteLayout &Layout, bool Overlap);

/// slope.zero.adjoints.<layout>(shadow, bytes): sets the floating-point
/// fields in the first \p bytes to zero, leaving the shadows of pointers
/// (memset of memory holding std::vector objects) as they are.
llvm::Function *zeroAdjointsFunction(llvm::Module &M, const ByteLayout &Layout);

} // namespace slope

#endif
