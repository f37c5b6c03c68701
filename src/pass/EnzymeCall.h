//===- EnzymeCall.h - Enzyme's C entry points, decoded ----------*- C++ -*-===//
//
// The second front end: code written for Enzyme calls
//   __enzyme_autodiff(f, args...)     reverse mode (enzyme_width: vector)
//   __enzyme_fwddiff(f, args...)      forward mode (enzyme_width: vector)
//   __enzyme_augmentfwd(f, args...)   split reverse mode: primal sweep
//   __enzyme_reverse(f, args..., [adjoint of f's result], tape)
// with activity markers, the addresses of user-declared globals
// `enzyme_dup`, `enzyme_dupnoneed`, `enzyme_const`, `enzyme_out`,
// `enzyme_dupv` and `enzyme_width` read as ints. An argument without a
// marker takes its default from the parameter's type: a floating-point
// scalar is enzyme_out (reverse) or enzyme_dup (forward), a pointer is
// enzyme_dup, anything else enzyme_const.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_ENZYMECALL_H
#define SLOPE_PASS_ENZYMECALL_H

#include "DiffRequest.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace slope {

enum class EnzymeEntry {
  AutoDiff,
  FwdDiff,
  AugmentFwd,
  Reverse,
  /// __enzyme_float/double/integer/pointer: type hints, dropped.
  TypeHint,
  /// Another __enzyme_ function: an error at the call.
  Unsupported,
};

/// The entry point \p F declares: its C name, or for C++ the unqualified
/// demangled name, starts with the entry's name (`__enzyme_autodiff_tpl`
/// is __enzyme_autodiff).
std::optional<EnzymeEntry> enzymeEntry(const llvm::Function &F);

/// The differentiation mode of an entry point.
DiffMode enzymeMode(EnzymeEntry Entry);

struct EnzymeCall {
  llvm::CallBase *Call = nullptr;
  EnzymeEntry Entry = EnzymeEntry::AutoDiff;
  DiffRequest Request;
  /// enzyme_width: the number of tangents per argument (forward mode) or
  /// of shadows per pointer and adjoints per active scalar (reverse mode).
  unsigned Width = 1;
  /// One per parameter of the target, converted to the parameter's type.
  llvm::SmallVector<llvm::Value *, 8> Primals;
  /// Per parameter and lane: the tangent of an active scalar (forward
  /// mode) or the shadow of a dup pointer; empty otherwise.
  llvm::SmallVector<llvm::SmallVector<llvm::Value *, 1>, 8> Shadows;
  /// __enzyme_reverse: the adjoint of the result (null when not FP) and the
  /// tape __enzyme_augmentfwd returned.
  llvm::Value *Seed = nullptr;
  llvm::Value *Tape = nullptr;
  /// The declared result type, and where the result goes when the ABI
  /// returns it through memory (sret); null otherwise.
  llvm::Type *ResultType = nullptr;
  llvm::Value *ResultMemory = nullptr;
};

/// The IR name of the function an Enzyme call differentiates, if known.
llvm::Function *enzymeTarget(llvm::CallBase &Call);

/// Decodes \p Call; conversions of variadic arguments (float promoted to
/// double, small integers to int) and dupv loads are inserted before it.
/// An error names the marker or argument that does not fit.
llvm::Expected<EnzymeCall> parseEnzymeCall(llvm::CallBase &Call,
                                           EnzymeEntry Entry);

class CustomRules;

/// Replaces \p Call (an Enzyme entry point) with calls of the derivative
/// it asks for; returns false when it failed and was reported. The caller
/// erases \p Call either way.
bool serveEnzymeCall(llvm::CallBase &Call, EnzymeEntry Entry,
                     const CustomRules &Rules);

} // namespace slope

#endif
