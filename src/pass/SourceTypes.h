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
#include <optional>
#include <vector>

namespace slope {

/// (IR name of the target, parameter index) -> floating-point element type
/// of the pointee, or null.
using PointeeTypeProvider =
    std::function<llvm::Type *(llvm::StringRef, unsigned, llvm::LLVMContext &)>;

void setPointeeTypeProvider(PointeeTypeProvider Provider);

llvm::Type *sourcePointeeElementType(llvm::StringRef Target, unsigned Arg,
                                     llvm::LLVMContext &Context);

/// One element of a copied range as the source types it: its size, and
/// the byte offsets of its floating-point fields (with their type's bits)
/// and pointer fields. Any other byte holds integers or padding.
/// ElementAssignment: the copy stands for assignments of such elements (the
/// standard library's std::copy and friends of trivially copyable types),
/// so it writes only objects of the element type; a memcpy the user wrote
/// may copy bytes into objects of any type.
struct SourceRecordLayout {
  uint64_t Size = 0;
  std::vector<std::pair<uint64_t, unsigned>> Floats;
  std::vector<uint64_t> Pointers;
  bool ElementAssignment = false;
  bool operator==(const SourceRecordLayout &O) const {
    return Size == O.Size && Floats == O.Floats && Pointers == O.Pointers &&
           ElementAssignment == O.ElementAssignment;
  }
};

/// (IR name of the function, line, column of a memcpy/memmove call in
/// it) -> the layout of the elements it copies, when the source says.
using CopyLayoutProvider = std::function<std::optional<SourceRecordLayout>(
    llvm::StringRef, unsigned, unsigned)>;

void setCopyLayoutProvider(CopyLayoutProvider Provider);

std::optional<SourceRecordLayout>
sourceCopyLayout(llvm::StringRef Function, unsigned Line, unsigned Column);

/// (IR name of the target, parameter index) -> the byte offsets of the
/// data pointers of std::vectors of a builtin type inside the struct the
/// parameter refers to.
using VectorDataProvider =
    std::function<std::vector<uint64_t>(llvm::StringRef, unsigned)>;

void setVectorDataProvider(VectorDataProvider Provider);

std::vector<uint64_t> sourceVectorData(llvm::StringRef Target, unsigned Arg);

/// IR name -> whether the source marks the function SLOPE_INACTIVE.
using InactivityProvider = std::function<bool(llvm::StringRef)>;

void setInactivityProvider(InactivityProvider Provider);

bool isSourceInactive(llvm::StringRef Function);

} // namespace slope

#endif
