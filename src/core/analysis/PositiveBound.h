//===- PositiveBound.h - Lower bounds of positive values --------*- C++ -*-===//
//
// A lower bound of a floating-point value built from positive constants,
// squares, sums, products and roots (|r|² + ε in an n-body kernel), for
// proving that a partial derivative such as 1/√x cannot be infinite.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_POSITIVEBOUND_H
#define SLOPE_CORE_POSITIVEBOUND_H

#include <optional>

namespace llvm {
class Value;
}

namespace slope {

/// L ≥ 0 such that \p V ≥ L or V is NaN, whatever the inputs; nullopt when
/// no such bound is evident (looking \p Depth operands deep).
std::optional<double> positiveLowerBound(const llvm::Value *V,
                                         unsigned Depth = 8);

/// Whether \p V is at least the smallest normal number of its type (or NaN).
bool isKnownNormalPositive(const llvm::Value *V);

} // namespace slope

#endif
