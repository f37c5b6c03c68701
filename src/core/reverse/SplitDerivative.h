//===- SplitDerivative.h - Augmented forward and reverse part ---*- C++ -*-===//
//
// A call that stays a call in reverse mode (recursion) runs the callee's
// augmented forward where the caller's primal sweep called it, and the
// callee's reverse part at the mirrored point of the caller's reverse sweep.
// Both are cut out of the callee's combined derivative at its seams, the
// points where a return of the primal sweep enters the reverse sweep. What
// the reverse part needs from the primal sweep -- SSA values that cross a
// seam, and the function's stack memory -- lives in a heap record that the
// augmented forward allocates and the reverse part frees. Each part runs
// once per call, so recursion costs time linear in the number of calls.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_SPLITDERIVATIVE_H
#define SLOPE_CORE_SPLITDERIVATIVE_H

#include "DiffRequest.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace slope {

struct SplitDerivative {
  /// The combined derivative's parameters without the seed, then a pointer
  /// where it stores the record; returns the primal result.
  llvm::Function *Augmented = nullptr;
  /// The combined derivative's parameters, then the record; returns what
  /// the combined derivative returns, with the primal result left poison.
  llvm::Function *Reverse = nullptr;
};

/// The two parts for \p Req (reverse mode). While the combined derivative
/// is itself being generated (a recursive call), they are declarations,
/// given bodies once it is complete.
llvm::Expected<SplitDerivative> getSplitDerivative(const DiffRequest &Req);

/// The attribute of the record parameter a reverse part receives and
/// frees.
inline constexpr const char *HandedOverRecord = "slope-record";

/// Whether \p Param is the record a reverse part receives and frees.
bool isHandedOverRecord(const llvm::Argument &Param);

/// The name of a part ("augmented", "reverse_part", ...) for \p Req.
std::string splitPartName(const DiffRequest &Req, llvm::StringRef Part);

/// The types of the augmented forward part and the reverse part for \p Req
/// (conventions above).
std::pair<llvm::FunctionType *, llvm::FunctionType *>
splitPartTypes(const DiffRequest &Req);

/// Marks in a combined derivative the seam after the primal sweep's return
/// number \p Index of \p Result (null for void).
void insertSeam(llvm::IRBuilderBase &B, unsigned Index, llvm::Value *Result);

/// \p Seed as the reverse sweep after a seam sees it: an opaque copy, so
/// that simplifying the combined derivative cannot hoist what the seed
/// computes into the primal sweep (the augmented forward has no seed).
llvm::Value *seedAfterSeam(llvm::IRBuilderBase &B, llvm::Value *Seed);

/// Replaces the opaque copies of seeds in \p F by the seeds themselves.
void exposeSeeds(llvm::Function &F);

/// Bookkeeping of getDerivative: a combined derivative named \p Name is
/// being generated, and then is done (\p Derivative is null when its
/// generation failed). Splits requested meanwhile are cut when it is done.
void beginDerivative(llvm::StringRef Name);
llvm::Error endDerivative(llvm::StringRef Name, llvm::Function *Derivative);

/// Removes the seam markers and seed copies from \p M once every request
/// is served.
void removeSeams(llvm::Module &M);

} // namespace slope

#endif
