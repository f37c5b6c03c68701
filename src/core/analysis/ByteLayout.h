//===- ByteLayout.h - Which copied bytes are floating-point ---*- C++ -*-===//
//-*-===//
//
// A copy of bytes whose memory holds one floating-point type is reversed
// element by element (MemoryTypes.h). Memory holding records of mixed
// fields -- a struct of an int and doubles, std::vector objects (three
// pointers) inside a std::vector -- needs to know which bytes of the copy
// are which: the adjoints of floating-point fields move back, the bytes of
// integer and pointer fields have none.
//
// The layout comes from the front end's types as they reach the IR: a
// copy's `!tbaa.struct` (clang's field list of an aggregate copy at -O1
// and above), or else the record type the memory is indexed with (struct
// GEPs, typed allocas) together with where the copy starts inside a record,
// found by following its address back to the object modulo the record
// size. Every floating-point access to the objects must agree with the
// layout; anything unproven gives no layout (and Slope's error).
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_BYTELAYOUT_H
#define SLOPE_CORE_BYTELAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Type.h"

#include <optional>
#include <string>

namespace llvm {
class DataLayout;
class LLVMContext;
class Instruction;
class Value;
} // namespace llvm

namespace slope {

/// Memory as a repetition of Stride-byte records; Floats are the
/// floating-point fields of one record, by byte offset from the start of
/// the region described (not necessarily the record's start).
struct ByteLayout {
  uint64_t Stride = 0;
  llvm::SmallVector<std::pair<uint64_t, llvm::Type *>, 4> Floats;
  /// Offsets of pointer fields (8 bytes each).
  llvm::SmallVector<uint64_t, 4> Pointers;

  /// The floating-point field that exactly covers [Offset, Offset + Size)
  /// of a record, null when those bytes hold no floating-point data;
  /// nullopt when they overlap a field only in part.
  std::optional<llvm::Type *> fieldCovering(uint64_t Offset,
                                            uint64_t Size) const;
  /// Whether [Offset, Offset + Size) of a record holds neither
  /// floating-point data nor pointers.
  bool holdsPlainData(uint64_t Offset, uint64_t Size) const;
  /// A name for helper functions specialised to this layout.
  std::string key() const;

  /// The layout of a record of \p Stride bytes with floating-point fields
  /// of the given (offset, bits) -- 32 or 64 -- and pointer fields, as the
  /// front end reports them.
  static ByteLayout
  fromFields(llvm::LLVMContext &Ctx, uint64_t Stride,
             llvm::ArrayRef<std::pair<uint64_t, unsigned>> FloatBits,
             llvm::ArrayRef<uint64_t> Pointers);
};

/// Records on \p Copy the layout of the elements its pointers point to,
/// as the source types them (`!slope.record`).
void markRecordLayout(llvm::Instruction &Copy, const ByteLayout &Layout);

/// The layout markRecordLayout left on \p Copy.
std::optional<ByteLayout> markedRecordLayout(const llvm::Instruction &Copy);

/// Whether the source types the elements \p Copy moves as integers only
/// (no floating-point or pointer fields): nothing to differentiate.
bool copiesPlainData(const llvm::Instruction &Copy);

/// Records that \p Copy assigns elements of its record layout (the
/// standard library's std::copy of trivially copyable types): it writes
/// objects of those types only (`!slope.assigns`).
void markElementAssignment(llvm::Instruction &Copy);

/// The floating-point type a copy marked by markElementAssignment assigns,
/// when its elements are exactly one such value; null otherwise.
llvm::Type *assignedFloatType(const llvm::Instruction &Copy);

/// The layout of the bytes a copy moves, starting at its first byte, from
/// \p Dest to \p Source (each a pointer into the copied memory): both sides
/// must agree. \p Copy is the transfer (for `!tbaa.struct`), may be null.
/// \p ArgElementTypes are the known element types of the parameters.
std::optional<ByteLayout> copiedByteLayout(
    llvm::Value *Dest, llvm::Value *Source, const llvm::Instruction *Copy,
    llvm::ArrayRef<llvm::Type *> ArgElementTypes, const llvm::DataLayout &DL);

} // namespace slope

#endif
