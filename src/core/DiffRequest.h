//===- DiffRequest.h - What to differentiate and how ------------*- C++ -*-===//
#ifndef SLOPE_CORE_DIFFREQUEST_H
#define SLOPE_CORE_DIFFREQUEST_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

#include <string>

namespace slope {

class CustomRules;

enum class DiffMode { Reverse, Forward };

/// How one parameter of the target takes part in differentiation. The
/// characters are those of the header's activity descriptor.
enum class ArgActivity : char {
  Active = 'A',   ///< floating-point scalar with an adjoint / tangent
  Constant = 'C', ///< wrapped in slope::constant (or a plain forward scalar)
  Inactive = 'I', ///< integers, bools, enums, pointers to integer data
  Dup = 'D',      ///< pointer with a shadow
};

struct DiffRequest {
  llvm::Function *Target = nullptr;
  DiffMode Mode = DiffMode::Reverse;
  llvm::SmallVector<ArgActivity, 8> Args;
  /// Forward mode: how many tangents travel with each active value (vector
  /// forward mode); the primal runs once.
  unsigned Width = 1;
  /// Per parameter: the floating-point type its pointee is made of, when
  /// the source says (from the clang plugin); null or absent otherwise.
  llvm::SmallVector<llvm::Type *, 8> ArgElementTypes;
  /// ArgElementTypes came from a caller's call site (a callee Slope
  /// differentiates as a call): they are part of the derivative's name, so
  /// that calls passing memory of other types get their own.
  bool ElementTypesFromCaller = false;
  /// Per parameter: byte offsets, in the struct it points to, of the data
  /// pointers of std::vectors of a builtin type (from the clang plugin):
  /// distinct vectors own disjoint buffers (LaterWrites.h).
  llvm::SmallVector<llvm::SmallVector<uint64_t, 4>, 8> ArgVectorData;
  /// Custom derivatives and inactive functions of the module (may be null).
  const CustomRules *Rules = nullptr;
  /// Reverse mode: the derivative will be cut into an augmented forward
  /// and a reverse part, between which the caller may write memory; the
  /// reverse sweep then cannot read values again from memory.
  bool Split = false;
  /// Reverse mode: the caller has checked that the memory reached through
  /// distinct pointer parameters does not overlap (where written), so they
  /// are differentiated as noalias; fails unless the function reaches
  /// memory only through them (see DisjointParameters.h).
  bool DisjointPointers = false;
  /// Reverse mode: the caller does not want the primal result (grad, not
  /// value_and_grad). The derivative returns poison in its place, so what
  /// only the result needed dies in the primal sweep.
  bool ResultUnused = false;

  /// Parses a descriptor such as "AC"; false on an unknown character.
  static bool parseActivity(llvm::StringRef Descriptor,
                            llvm::SmallVectorImpl<ArgActivity> &Out);

  std::string activityString() const;
  bool isActive(unsigned ArgNo) const {
    return Args[ArgNo] == ArgActivity::Active;
  }
  /// Whether parameter \p ArgNo brings one more argument per lane to the
  /// derivative: a dup pointer's shadow, or in forward mode an active
  /// scalar's tangent.
  bool takesShadow(unsigned ArgNo) const {
    return Args[ArgNo] == ArgActivity::Dup ||
           (Mode == DiffMode::Forward && isActive(ArgNo));
  }
  /// Name of the generated function, unique per (target, mode, activity).
  std::string derivativeName() const;
  /// ".e" and a letter per parameter for element types a caller supplied
  /// ('d' double, 'f' float, '_' unknown); empty otherwise.
  std::string elementTypeSuffix() const;
};

llvm::StringRef modeName(DiffMode Mode);

/// The arguments of a call of \p Req's derivative: \p Primals, then lane
/// by lane ShadowOf(lane, parameter) for each parameter that takes a
/// shadow. (Reverse mode's seeds of a floating-point result follow.)
llvm::SmallVector<llvm::Value *, 16> derivativeArguments(
    const DiffRequest &Req, llvm::ArrayRef<llvm::Value *> Primals,
    llvm::function_ref<llvm::Value *(unsigned Lane, unsigned Param)> ShadowOf);

} // namespace slope

#endif
