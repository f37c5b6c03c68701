//===- SeamCut.h - Cutting a combined derivative in two ---------*- C++ -*-===//
#ifndef SLOPE_CORE_SEAMCUT_H
#define SLOPE_CORE_SEAMCUT_H

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace slope {

/// Seam number K is a call to the variadic marker `slope.seam.K`, passed
/// the returned value. One marker per seam keeps simplification from
/// merging seams into one call.
constexpr llvm::StringLiteral SeamPrefix = "slope.seam.";

/// The index of the seam \p Call marks, if it is one.
std::optional<unsigned> seamIndex(const llvm::CallInst &Call);

/// Gives the declarations \p Augmented and \p Reverse (see SplitDerivative)
/// bodies cut out of \p Combined, which must still carry its seams.
llvm::Error cutAtSeams(llvm::Function &Combined, llvm::Function &Augmented,
                       llvm::Function &Reverse);

} // namespace slope

#endif
