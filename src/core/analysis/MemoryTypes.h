//===- MemoryTypes.h - What type of data memory holds -----------*- C++ -*-===//
//
// Copies of bytes (memcpy, realloc, integer loads and stores that clang
// makes of small struct copies) carry adjoints only if Slope knows the
// floating-point type of the bytes. It is judged from every access to the
// underlying objects in the function, and for parameters from their
// source-level pointee types, which the clang plugin supplies.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_MEMORYTYPES_H
#define SLOPE_CORE_MEMORYTYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Type.h"
#include "llvm/IR/Value.h"
#include "llvm/Support/Error.h"

namespace llvm {
class CallBase;
class Instruction;
class StoreInst;
} // namespace llvm

namespace slope {

/// An integer load whose every user stores it, or the store of such a
/// load: bytes moved from one place to another, of whatever type.
bool isIntegerCopy(const llvm::Instruction &I);

/// The one floating-point type stored in the objects \p Pointers point
/// into; null when there are several, or other data besides, or nothing
/// says. \p ArgElementTypes[i] is the known element type of parameter i's
/// pointee (null when unknown).
llvm::Type *soleElementType(llvm::ArrayRef<llvm::Value *> Pointers,
                            llvm::ArrayRef<llvm::Type *> ArgElementTypes);

/// Whether the objects \p Pointers point into are accessed only as pointers
/// (std::vector objects inside a std::vector's buffer): loads and stores of
/// pointers, integer copies, memsets; at least one pointer access and no
/// floating-point one, no transfer of bytes, no call but releases
/// (\p IsRelease). Such memory has no adjoints: its shadow holds shadow
/// pointers.
bool holdsPointersOnly(
    llvm::ArrayRef<llvm::Value *> Pointers,
    llvm::function_ref<bool(const llvm::CallBase &)> IsRelease);

/// An integer store into memory known to hold floating-point data (other
/// than a recognised copy) would leave its shadow stale: an error.
llvm::Error checkIntegerStore(llvm::StoreInst &Store,
                              llvm::ArrayRef<llvm::Type *> ArgElementTypes);

} // namespace slope

#endif
