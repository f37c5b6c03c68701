//===- PositiveBound.cpp --------------------------------------------------===//
//
// Rounding is monotone, so an operation whose exact result is at least one
// of its operands (a + b with b ≥ 0, x·x + c) is at least that operand's
// bound after rounding too.
//
//===----------------------------------------------------------------------===//
#include "PositiveBound.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace slope {

namespace {

/// Combine(bound of A, bound of B) when both have one.
template <class Fn>
std::optional<double> combineBounds(const Value *A, const Value *B,
                                    unsigned Depth, Fn Combine) {
  std::optional<double> BoundA = positiveLowerBound(A, Depth);
  std::optional<double> BoundB = positiveLowerBound(B, Depth);
  if (BoundA && BoundB)
    return Combine(*BoundA, *BoundB);
  return std::nullopt;
}

/// Whether a·b is known not to be negative (or is NaN): a square, or a
/// product of two bounded values.
bool isNonNegativeProduct(const Value *A, const Value *B, unsigned Depth) {
  return A == B ||
         (positiveLowerBound(A, Depth) && positiveLowerBound(B, Depth));
}

} // namespace

std::optional<double> positiveLowerBound(const Value *V, unsigned Depth) {
  if (const auto *C = dyn_cast<ConstantFP>(V)) {
    const APFloat &F = C->getValueAPF();
    if (F.isNaN() || F.isNegative())
      return std::nullopt;
    bool LosesInfo = false;
    APFloat AsDouble = F;
    AsDouble.convert(APFloat::IEEEdouble(), APFloat::rmTowardZero, &LosesInfo);
    return AsDouble.convertToDouble();
  }
  if (Depth == 0)
    return std::nullopt;
  --Depth;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return std::nullopt;
  switch (I->getOpcode()) {
  case Instruction::FAdd: // at least the larger operand
    return combineBounds(I->getOperand(0), I->getOperand(1), Depth,
                         [](double A, double B) { return std::max(A, B); });
  case Instruction::FMul:
    if (isNonNegativeProduct(I->getOperand(0), I->getOperand(1), Depth))
      return 0.0; // may underflow to zero
    return std::nullopt;
  case Instruction::FPExt:
    return positiveLowerBound(I->getOperand(0), Depth);
  case Instruction::Select:
    return combineBounds(I->getOperand(1), I->getOperand(2), Depth,
                         [](double A, double B) { return std::min(A, B); });
  default:
    break;
  }
  const auto *Intrinsic = dyn_cast<IntrinsicInst>(I);
  if (!Intrinsic)
    return std::nullopt;
  switch (Intrinsic->getIntrinsicID()) {
  case Intrinsic::fmuladd:
  case Intrinsic::fma:
    if (isNonNegativeProduct(I->getOperand(0), I->getOperand(1), Depth))
      return positiveLowerBound(I->getOperand(2), Depth);
    return std::nullopt;
  case Intrinsic::sqrt:
    // Half the root: far below how sqrt of the bound rounds in any type.
    if (auto A = positiveLowerBound(I->getOperand(0), Depth))
      return 0.5 * std::sqrt(*A);
    return std::nullopt;
  case Intrinsic::fabs:
    return 0.0;
  default:
    return std::nullopt;
  }
}

bool isKnownNormalPositive(const Value *V) {
  Type *Ty = V->getType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy())
    return false;
  std::optional<double> Bound = positiveLowerBound(V);
  double SmallestNormal =
      APFloat::getSmallestNormalized(Ty->getFltSemantics()).convertToDouble();
  return Bound && *Bound >= SmallestNormal;
}

} // namespace slope
