//===- Rules.h - The declarative table of derivative rules ------*- C++ -*-===//
//
// Each rule states, once, the partial derivatives of an operation's result
// with respect to each of its operands. Forward mode applies them as
// ẏ = Σ ∂y/∂xᵢ·ẋᵢ and reverse mode as x̄ᵢ += ∂y/∂xᵢ·ȳ (see RuleApplication).
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_RULES_H
#define SLOPE_CORE_RULES_H

#include "llvm/ADT/FloatingPointMode.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <array>

namespace slope {

struct DerivativeRule;

/// What a partial derivative may use: the builder at the insertion point and
/// the primal operands and result, made available there on request.
class RuleOperands {
public:
  using Lookup = llvm::function_ref<llvm::Value *(llvm::Value *)>;

  /// \p WholeBlockAvailable: every primal value of Primal's block is
  /// available (reverse mode), not only those before it.
  RuleOperands(llvm::IRBuilderBase &B, llvm::Instruction &Primal,
               Lookup Available, bool WholeBlockAvailable = false)
      : B(B), Primal(Primal), Available(Available),
        WholeBlockAvailable(WholeBlockAvailable) {}

  llvm::IRBuilderBase &B;

  /// The I-th differentiable operand (the I-th argument of a call).
  llvm::Value *x(unsigned I);
  /// The primal result.
  llvm::Value *y() { return Available(&Primal); }
  /// The intrinsic the primal calls (not_intrinsic otherwise).
  llvm::Intrinsic::ID intrinsic() const;
  llvm::Type *type() { return Primal.getType(); }
  llvm::Value *c(double V);

  llvm::Value *add(llvm::Value *A, llvm::Value *B2);
  llvm::Value *sub(llvm::Value *A, llvm::Value *B2);
  llvm::Value *mul(llvm::Value *A, llvm::Value *B2);
  llvm::Value *div(llvm::Value *A, llvm::Value *B2);
  llvm::Value *neg(llvm::Value *A);
  llvm::Value *square(llvm::Value *A) { return mul(A, A); }
  /// ID(Args); for a function of the primal's own operand, the primal's
  /// result of it when the primal computes it too (sin beside cos).
  llvm::Value *call(llvm::Intrinsic::ID ID, llvm::ArrayRef<llvm::Value *> Args);
  /// 1 when Cond holds, else 0.
  llvm::Value *indicator(llvm::Value *Cond);
  /// -1, 0 or 1.
  llvm::Value *sign(llvm::Value *A);
  /// Whether the primal operand where \p Rule's partials are singular is
  /// known never to take a value of Rule.SingularAt.
  bool avoidsSingularity(const DerivativeRule &Rule) const;

  /// In reverse mode, whether the values a partial may read (\p V) cost
  /// the reverse sweep no tape entry: set by the reverse emitter.
  llvm::function_ref<bool(llvm::Value *)> WithoutTape = nullptr;
  /// Whether a partial that can be written with the result or with
  /// operand \p I should use the operand: it costs no tape, the result
  /// would (a quotient in a loop).
  bool prefersOperandToResult(unsigned I);

private:
  /// A call in Primal's block computing \p ID of Primal's first operand.
  llvm::Instruction *companionCall(llvm::Intrinsic::ID ID);

  llvm::Instruction &Primal;
  Lookup Available;
  bool WholeBlockAvailable;
};

/// A partial derivative ∂y/∂xᵢ; emits IR and returns its value.
using Partial = llvm::Value *(*)(RuleOperands &);

struct DerivativeRule {
  /// The libm base name ("sin" covers sin, sinf, sinl), or the operation.
  const char *Name;
  /// Number of operands (call arguments) of the operation.
  unsigned Arity;
  /// The LLVM intrinsic with the same meaning, if any.
  llvm::Intrinsic::ID Intrinsic;
  /// The IR opcode for instruction rules, 0 otherwise.
  unsigned Opcode;
  /// One entry per operand; null where the result is locally constant in
  /// that operand (integer exponents, rounding, the sign of copysign).
  std::array<Partial, 4> Partials;
  /// The partials can be infinite or NaN (sqrt at 0, log at 0, 1/x at 0):
  /// a zero tangent or adjoint must then give zero, not NaN.
  bool GuardSingular;
  /// Where known: the partials are finite (unless the primal overflows or
  /// is NaN) when operand SingularOperand is known never to be of these
  /// classes, and then need no guard (√x with x ≥ ε in an n-body kernel).
  unsigned SingularOperand = 0;
  llvm::FPClassTest SingularAt = llvm::fcNone;
  /// When nonzero, the classes do not suffice: the partials are finite
  /// only for an operand provably at least this (y/b for a/b needs b ≥ 1:
  /// with b = DBL_MIN it overflows while a/b does not).
  double FiniteFrom = 0;
  /// Rounding-like operations whose partials are all zero.
  bool isPiecewiseConstant() const {
    return !Partials[0] && !Partials[1] && !Partials[2] && !Partials[3];
  }
};

/// The rule for \p I, or null. Calls match by intrinsic ID or, for external
/// C math functions with the math prototype, by libm name.
const DerivativeRule *findRule(const llvm::Instruction &I);

/// For a CUDA libdevice math function with a body (__nv_sin, __nv_powf):
/// the libm rule that stands for it, or null.
const DerivativeRule *libDeviceRule(const llvm::Function &F);

/// Emits Σ ∂y/∂xᵢ·ẋᵢ for the operands with a tangent (null: zero tangent).
/// Returns the tangent of the result.
llvm::Value *applyForward(const DerivativeRule &Rule, RuleOperands &Ops,
                          llvm::ArrayRef<llvm::Value *> Tangents);

/// Emits ∂y/∂xᵢ·ȳ for each operand I with Wanted[I] set; Out[I] receives the
/// contribution to x̄ᵢ (null when not wanted or locally constant).
void applyReverse(const DerivativeRule &Rule, RuleOperands &Ops,
                  llvm::Value *Adjoint, llvm::ArrayRef<bool> Wanted,
                  llvm::SmallVectorImpl<llvm::Value *> &Out);

} // namespace slope

#endif
