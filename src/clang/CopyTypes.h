//===- CopyTypes.h - The C++ types of the bytes copies move -----*- C++ -*-===//
//
// The standard library copies trivially copyable ranges with
// __builtin_memmove / __builtin_memcpy on typed pointers (std::copy,
// std::vector's assignment and growth, std::stable_sort's moves). Clang
// knows each pointee's type there; once lowered, the copy is bytes. This
// records, at each such call in the source, the layout of one element:
// its size and where its floating-point and pointer fields are. The pass
// marks the copies with it before the optimizer moves them.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CLANG_COPYTYPES_H
#define SLOPE_CLANG_COPYTYPES_H

#include "SourceTypes.h"

#include <map>
#include <string>
#include <tuple>

namespace clang {
class ASTContext;
}

namespace slope {

/// (IR name of the enclosing function, line, column) -> element layout.
using CopyLayouts =
    std::map<std::tuple<std::string, unsigned, unsigned>, SourceRecordLayout>;

/// Finds every memcpy/memmove call in the translation unit's function
/// bodies (template instantiations included) whose pointee type has a
/// layout Slope can describe.
void collectCopyLayouts(clang::ASTContext &Context, CopyLayouts &Out);

} // namespace slope

#endif
