//===- Diagnostics.h - Reporting failed derivative requests -----*- C++ -*-===//
//
// The pass reports errors through a handler the clang plugin installs, so
// that they appear at the grad<> call in the user's source. Without one
// (opt, -fpass-plugin) they go to the LLVMContext as ordinary diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_DIAGNOSTICS_H
#define SLOPE_PASS_DIAGNOSTICS_H

#include "DiffRequest.h"

#include "llvm/IR/DebugLoc.h"

#include <functional>
#include <string>

namespace slope {

struct DiagnosticReport {
  /// IR name of the function that was to be differentiated (may be empty).
  std::string TargetName;
  DiffMode Mode = DiffMode::Reverse;
  std::string Message;
  /// The offending statement, when compiled with -g.
  llvm::DebugLoc Location;
  /// The marker call that requested the derivative.
  const llvm::Instruction *Request = nullptr;
};

/// Returns true when the report was shown to the user.
using DiagnosticHandler = std::function<bool(const DiagnosticReport &)>;

void setDiagnosticHandler(DiagnosticHandler Handler);

void report(const DiagnosticReport &Report);

} // namespace slope

#endif
