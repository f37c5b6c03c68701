//===- RuleTable.cpp - One line of calculus per operation -----------------===//
//
// The only place that knows derivatives of primitive operations. Partials
// reuse the primal result y where that is cheaper (exp, sqrt, tanh).
//
//===----------------------------------------------------------------------===//
#include "RuleTable.h"

#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace slope {
namespace {

using R = RuleOperands &;
using ID = Intrinsic::ID;
constexpr ID None = Intrinsic::not_intrinsic;

constexpr double Ln2 = 0.693147180559945309417232121458176568;
constexpr double Ln10 = 2.302585092994045684017991454684364208;
constexpr double TwoOverSqrtPi = 1.128379167095512573896158903121545172;

Value *one(R r) { return r.c(1.0); }
Value *minusOne(R r) { return r.c(-1.0); }

// d/dx of a binary min/max: which operand the result came from. Ties and a
// NaN second operand send the whole derivative to the first operand, so the
// partials of the two operands always sum to one.
Value *minFirst(R r) { return r.indicator(r.B.CreateFCmpULE(r.x(0), r.x(1))); }
Value *minSecond(R r) { return r.sub(r.c(1.0), minFirst(r)); }
Value *maxFirst(R r) { return r.indicator(r.B.CreateFCmpUGE(r.x(0), r.x(1))); }
Value *maxSecond(R r) { return r.sub(r.c(1.0), maxFirst(r)); }

// 1 / sqrt(1 - x²), shared by asin and acos.
Value *invSqrtOneMinusSquare(R r) {
  return r.div(r.c(1.0),
               r.call(Intrinsic::sqrt, {r.sub(r.c(1.0), r.square(r.x(0)))}));
}

// fdim(a, b) = max(a - b, 0): a's partial is 1 where a > b, b's its negation.
Value *fdimFirst(R r) { return r.indicator(r.B.CreateFCmpOGT(r.x(0), r.x(1))); }
Value *fdimSecond(R r) { return r.neg(fdimFirst(r)); }

// 1 / sqrt(x² + c), shared by asinh (c = 1) and acosh (c = -1).
Value *invSqrtSquarePlus(R r, double C) {
  return r.div(r.c(1.0),
               r.call(Intrinsic::sqrt, {r.add(r.square(r.x(0)), r.c(C))}));
}

// ldexp(1, n) = 2ⁿ exactly, the derivative of ldexp(x, n) and scalbn(x, n)
// in x; locally constant in the integer n.
Value *powerOfTwo(R r) {
  Value *N = r.x(1);
  return r.B.CreateIntrinsic(Intrinsic::ldexp, {r.type(), N->getType()},
                             {r.c(1.0), N});
}

// x² + y², shared by atan2 and hypot.
Value *sumOfSquares(R r) { return r.add(r.square(r.x(0)), r.square(r.x(1))); }

// ∂ hypot(x, y) / ∂ operand K = operand / hypot, and 0 at the origin: a
// subgradient of the norm there (x/h would be 0/0 = NaN, which a zero
// derivative further back cannot cancel: NaN · 0 is NaN).
Value *hypotPartial(R r, unsigned K) {
  Value *AtOrigin = r.B.CreateFCmpOEQ(r.y(), r.c(0.0));
  return r.B.CreateSelect(AtOrigin, r.c(0.0), r.div(r.x(K), r.y()));
}

const DerivativeRule Rules[] = {
    // IR instructions.
    {"fadd", 2, None, Instruction::FAdd, {one, one}, false},
    {"fsub", 2, None, Instruction::FSub, {one, minusOne}, false},
    {"fmul",
     2,
     None,
     Instruction::FMul,
     {[](R r) { return r.x(1); }, [](R r) { return r.x(0); }},
     false},
    {"fdiv",
     2,
     None,
     Instruction::FDiv,
     // -y·(1/b) rather than -y/b: the reciprocal is shared with the first
     // partial, one division instead of two. Where the reverse sweep would
     // tape y but has a for free, y is taken as a·(1/b): a product
     // instead of a tape entry (and the quotient may then die in the
     // primal sweep of a gradient that does not return it).
     {[](R r) { return r.div(r.c(1.0), r.x(1)); },
      [](R r) {
        Value *Reciprocal = r.div(r.c(1.0), r.x(1));
        Value *Quotient =
            r.prefersOperandToResult(0) ? r.mul(r.x(0), Reciprocal) : r.y();
        return r.neg(r.mul(Quotient, Reciprocal));
      }},
     true,
     // 1/b is finite for a normal divisor, but y·(1/b) = a/b² only for
     // |b| ≥ 1.
     1,
     fcZero | fcSubnormal,
     1.0},
    {"fneg", 1, None, Instruction::FNeg, {minusOne}, false},

    // Powers and roots.
    {"sqrt",
     1,
     Intrinsic::sqrt,
     0,
     // ½·(1/√x), exactly ½/√x: the reciprocal is shared with a division
     // by the root (1/√x in -m/√x), one division instead of two.
     {[](R r) { return r.mul(r.c(0.5), r.div(r.c(1.0), r.y())); }},
     true,
     // A positive normal or infinite radicand: 1/√x is finite.
     0,
     fcZero | fcSubnormal | fcNegative},
    {"cbrt",
     1,
     None,
     0,
     {[](R r) { return r.div(r.c(1.0), r.mul(r.c(3.0), r.square(r.y()))); }},
     true},
    {"pow",
     2,
     Intrinsic::pow,
     0,
     {[](R r) {
        return r.mul(r.x(1),
                     r.call(Intrinsic::pow, {r.x(0), r.sub(r.x(1), r.c(1.0))}));
      },
      [](R r) {
        // y·log(x), taken as 0 where y = 0 (x = 0 and positive exponent).
        Value *Y = r.y();
        Value *Full = r.mul(Y, r.call(Intrinsic::log, {r.x(0)}));
        return r.B.CreateSelect(r.B.CreateFCmpOEQ(Y, r.c(0.0)), r.c(0.0), Full);
      }},
     true},
    {"powi",
     2,
     Intrinsic::powi,
     0,
     {[](R r) {
        Value *N = r.x(1);
        Value *NMinusOne = r.B.CreateSub(N, ConstantInt::get(N->getType(), 1));
        return r.mul(r.B.CreateSIToFP(N, r.type()),
                     r.B.CreateIntrinsic(Intrinsic::powi,
                                         {r.type(), N->getType()},
                                         {r.x(0), NMinusOne}));
      },
      nullptr},
     true},
    {"hypot",
     2,
     None,
     0,
     {[](R r) { return hypotPartial(r, 0); },
      [](R r) { return hypotPartial(r, 1); }},
     true},

    // Exponentials and logarithms.
    {"exp", 1, Intrinsic::exp, 0, {[](R r) { return r.y(); }}, false},
    {"exp2",
     1,
     Intrinsic::exp2,
     0,
     {[](R r) { return r.mul(r.y(), r.c(Ln2)); }},
     false},
    {"exp10",
     1,
     Intrinsic::exp10,
     0,
     {[](R r) { return r.mul(r.y(), r.c(Ln10)); }},
     false},
    {"expm1", 1, None, 0, {[](R r) { return r.add(r.y(), r.c(1.0)); }}, false},
    {"ldexp", 2, Intrinsic::ldexp, 0, {powerOfTwo, nullptr}, false},
    {"scalbn", 2, None, 0, {powerOfTwo, nullptr}, false},
    {"scalbln", 2, None, 0, {powerOfTwo, nullptr}, false},
    {"log",
     1,
     Intrinsic::log,
     0,
     {[](R r) { return r.div(r.c(1.0), r.x(0)); }},
     true},
    {"log2",
     1,
     Intrinsic::log2,
     0,
     {[](R r) { return r.div(r.c(1.0), r.mul(r.x(0), r.c(Ln2))); }},
     true},
    {"log10",
     1,
     Intrinsic::log10,
     0,
     {[](R r) { return r.div(r.c(1.0), r.mul(r.x(0), r.c(Ln10))); }},
     true},
    {"log1p",
     1,
     None,
     0,
     {[](R r) { return r.div(r.c(1.0), r.add(r.x(0), r.c(1.0))); }},
     true},

    // Trigonometric and hyperbolic functions.
    {"sin",
     1,
     Intrinsic::sin,
     0,
     {[](R r) { return r.call(Intrinsic::cos, {r.x(0)}); }},
     false},
    {"cos",
     1,
     Intrinsic::cos,
     0,
     {[](R r) { return r.neg(r.call(Intrinsic::sin, {r.x(0)})); }},
     false},
    {"tan",
     1,
     Intrinsic::tan,
     0,
     {[](R r) { return r.add(r.c(1.0), r.square(r.y())); }},
     false},
    {"asin", 1, Intrinsic::asin, 0, {invSqrtOneMinusSquare}, true},
    {"acos",
     1,
     Intrinsic::acos,
     0,
     {[](R r) { return r.neg(invSqrtOneMinusSquare(r)); }},
     true},
    {"atan",
     1,
     Intrinsic::atan,
     0,
     {[](R r) { return r.div(r.c(1.0), r.add(r.c(1.0), r.square(r.x(0)))); }},
     false},
    {"atan2",
     2,
     None,
     0,
     {[](R r) { return r.div(r.x(1), sumOfSquares(r)); },
      [](R r) { return r.neg(r.div(r.x(0), sumOfSquares(r))); }},
     true},
    {"sinh",
     1,
     Intrinsic::sinh,
     0,
     {[](R r) { return r.call(Intrinsic::cosh, {r.x(0)}); }},
     false},
    {"cosh",
     1,
     Intrinsic::cosh,
     0,
     {[](R r) { return r.call(Intrinsic::sinh, {r.x(0)}); }},
     false},
    {"tanh",
     1,
     Intrinsic::tanh,
     0,
     {[](R r) { return r.sub(r.c(1.0), r.square(r.y())); }},
     false},
    {"asinh",
     1,
     None,
     0,
     {[](R r) { return invSqrtSquarePlus(r, 1.0); }},
     false},
    {"acosh",
     1,
     None,
     0,
     {[](R r) { return invSqrtSquarePlus(r, -1.0); }},
     true},
    {"atanh",
     1,
     None,
     0,
     {[](R r) { return r.div(r.c(1.0), r.sub(r.c(1.0), r.square(r.x(0)))); }},
     true},
    {"erf",
     1,
     None,
     0,
     {[](R r) {
       return r.mul(r.c(TwoOverSqrtPi),
                    r.call(Intrinsic::exp, {r.neg(r.square(r.x(0)))}));
     }},
     false},
    {"erfc",
     1,
     None,
     0,
     {[](R r) {
       return r.mul(r.c(-TwoOverSqrtPi),
                    r.call(Intrinsic::exp, {r.neg(r.square(r.x(0)))}));
     }},
     false},

    // Sign, magnitude, selection.
    {"fabs",
     1,
     Intrinsic::fabs,
     0,
     {[](R r) { return r.sign(r.x(0)); }},
     false},
    {"copysign",
     2,
     Intrinsic::copysign,
     0,
     {[](R r) {
        return r.mul(r.call(Intrinsic::copysign, {r.c(1.0), r.x(0)}),
                     r.call(Intrinsic::copysign, {r.c(1.0), r.x(1)}));
      },
      nullptr},
     false},
    {"fmin", 2, Intrinsic::minnum, 0, {minFirst, minSecond}, false},
    {"fmax", 2, Intrinsic::maxnum, 0, {maxFirst, maxSecond}, false},
    {"minimum", 2, Intrinsic::minimum, 0, {minFirst, minSecond}, false},
    {"maximum", 2, Intrinsic::maximum, 0, {maxFirst, maxSecond}, false},
    {"fdim", 2, None, 0, {fdimFirst, fdimSecond}, false},
    {"fma",
     3,
     Intrinsic::fma,
     0,
     {[](R r) { return r.x(1); }, [](R r) { return r.x(0); }, one},
     false},
    {"fmuladd",
     3,
     Intrinsic::fmuladd,
     0,
     {[](R r) { return r.x(1); }, [](R r) { return r.x(0); }, one},
     false},

    // Remainders: a - n·b with n locally constant (truncated for fmod and
    // frem, rounded to even for remainder).
    {"frem",
     2,
     None,
     Instruction::FRem,
     {one,
      [](R r) {
        return r.neg(r.call(Intrinsic::trunc, {r.div(r.x(0), r.x(1))}));
      }},
     false},
    {"fmod",
     2,
     None,
     0,
     {one,
      [](R r) {
        return r.neg(r.call(Intrinsic::trunc, {r.div(r.x(0), r.x(1))}));
      }},
     false},
    {"remainder",
     2,
     None,
     0,
     {one,
      [](R r) {
        return r.neg(r.call(Intrinsic::roundeven, {r.div(r.x(0), r.x(1))}));
      }},
     false},

    // Rounding: locally constant.
    {"floor", 1, Intrinsic::floor, 0, {}, false},
    {"ceil", 1, Intrinsic::ceil, 0, {}, false},
    {"trunc", 1, Intrinsic::trunc, 0, {}, false},
    {"round", 1, Intrinsic::round, 0, {}, false},
    {"rint", 1, Intrinsic::rint, 0, {}, false},
    {"nearbyint", 1, Intrinsic::nearbyint, 0, {}, false},
    {"roundeven", 1, Intrinsic::roundeven, 0, {}, false},
    {"logb", 1, None, 0, {}, false},
};

} // namespace

ArrayRef<DerivativeRule> ruleTable() { return Rules; }

} // namespace slope
