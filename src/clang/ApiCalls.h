//===- ApiCalls.h - Finding and checking slope API calls --------*- C++ -*-===//
#ifndef SLOPE_CLANG_APICALLS_H
#define SLOPE_CLANG_APICALLS_H

#include "DiffRequest.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/APFloat.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace slope {

/// Where each derivative was requested: (IR name of the target, mode) to
/// the source locations of the grad/derivative calls.
using RequestLocations = std::map<std::pair<std::string, DiffMode>,
                                  std::vector<clang::SourceLocation>>;

/// Per target (IR name): for each parameter, the floating-point semantics
/// its pointee is made of (a float type, arrays or structs of only that
/// type), or null.
using PointeeSemantics =
    std::map<std::string, std::vector<const llvm::fltSemantics *>>;

/// Per target (IR name): for each parameter that refers to a struct, the
/// byte offsets in it of the data pointers of std::vectors of a builtin
/// arithmetic type (the struct's own members, members of its members and
/// bases), or nothing.
using VectorDataOffsets =
    std::map<std::string, std::vector<std::vector<uint64_t>>>;

/// What the plugin learns from the translation unit for the pass.
struct SourceFacts {
  RequestLocations Locations;
  PointeeSemantics Pointees;
  VectorDataOffsets VectorData;
  /// IR names of functions marked SLOPE_INACTIVE.
  std::set<std::string> Inactive;
};

/// Visits every slope::grad / value_and_grad / derivative /
/// value_and_derivative call in the translation unit, reports targets it
/// cannot differentiate (no body and no custom derivative), and records
/// the facts the pass needs.
/// \p LinkTime: an -flto compile step, where a target defined in another
/// file is the link's to differentiate, not an error here.
void checkApiCalls(clang::ASTContext &Context, SourceFacts &Facts,
                   bool LinkTime = false);

} // namespace slope

#endif
