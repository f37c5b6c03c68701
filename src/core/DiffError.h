//===- DiffError.h - Why a derivative could not be generated ----*- C++ -*-===//
//
// Errors on user code travel as llvm::Error so that the pass can turn them
// into compiler diagnostics; nothing reachable from user code asserts.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_DIFFERROR_H
#define SLOPE_CORE_DIFFERROR_H

#include "llvm/IR/DebugLoc.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class DILocation;
class Instruction;
} // namespace llvm

namespace slope {

class DiffError : public llvm::ErrorInfo<DiffError> {
public:
  static char ID;

  /// \p At is the offending instruction (its debug location, when present,
  /// points the user at the statement).
  DiffError(std::string Message, const llvm::Instruction *At = nullptr);

  std::string message() const override { return Message; }
  const llvm::DebugLoc &location() const { return Location; }

  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Message;
  llvm::DebugLoc Location;
};

/// The innermost of \p Loc's inlined frames outside Slope's headers
/// (namespace slope): the statement the user wrote.
llvm::DILocation *userLocation(llvm::DILocation *Loc);

/// An error naming the instruction that could not be differentiated.
llvm::Error unsupported(const llvm::Instruction &I, llvm::StringRef Why);

/// The source-level name behind an IR name (demangled, without the
/// suffixes Slope adds to clones and derivatives).
std::string sourceName(llvm::StringRef IRName);

/// How an instruction reads in a message: "call to 'g'" or "'fptoui'".
std::string describe(const llvm::Instruction &I);

} // namespace slope

#endif
