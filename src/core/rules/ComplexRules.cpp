//===- ComplexRules.cpp - Complex arithmetic, one part at a time ----------===//
//
// C's complex runtime functions return both parts at once ({double,
// double}); the rule table's rules have one result. LibraryRewrites.cpp
// therefore splits each call into two calls of Slope's own helpers,
// "slope.complex.<op>.re" and ".im", which call the library function and
// return one part; these rules differentiate them. Every operation here is
// holomorphic: with f'(z) = u + iv, the real part's partials in (x, y) are
// (u, -v) and the imaginary part's (v, u).
//
//===----------------------------------------------------------------------===//
#include "RuleTable.h"

using namespace llvm;

namespace slope {
namespace {

using R = RuleOperands &;
constexpr Intrinsic::ID None = Intrinsic::not_intrinsic;

Value *a(R r) { return r.x(0); }
Value *b(R r) { return r.x(1); }
Value *c(R r) { return r.x(2); }
Value *d(R r) { return r.x(3); }
Value *negB(R r) { return r.neg(b(r)); }
Value *negD(R r) { return r.neg(d(r)); }

/// |z|² of the operands I, I + 1.
Value *normSquared(R r, unsigned I) {
  return r.add(r.square(r.x(I)), r.square(r.x(I + 1)));
}

// Division q = z1 / z2, z1 = a + ib, z2 = c + id: ∂q/∂z1 = 1/z2 and
// ∂q/∂z2 = -q/z2, with q recomputed from the operands.
Value *quotientRe(R r) {
  return r.div(r.add(r.mul(a(r), c(r)), r.mul(b(r), d(r))), normSquared(r, 2));
}
Value *quotientIm(R r) {
  return r.div(r.sub(r.mul(b(r), c(r)), r.mul(a(r), d(r))), normSquared(r, 2));
}
Value *divU1(R r) { return r.div(c(r), normSquared(r, 2)); }
Value *divV1(R r) { return r.neg(r.div(d(r), normSquared(r, 2))); }
Value *divU2(R r) {
  return r.neg(
      r.div(r.add(r.mul(quotientRe(r), c(r)), r.mul(quotientIm(r), d(r))),
            normSquared(r, 2)));
}
Value *divV2(R r) {
  return r.neg(
      r.div(r.sub(r.mul(quotientIm(r), c(r)), r.mul(quotientRe(r), d(r))),
            normSquared(r, 2)));
}

// exp: f' = exp(z) = e^a (cos b + i sin b).
Value *expU(R r) {
  return r.mul(r.call(Intrinsic::exp, {a(r)}), r.call(Intrinsic::cos, {b(r)}));
}
Value *expV(R r) {
  return r.mul(r.call(Intrinsic::exp, {a(r)}), r.call(Intrinsic::sin, {b(r)}));
}

// log: f' = 1/z = (a - ib) / |z|².
Value *logU(R r) { return r.div(a(r), normSquared(r, 0)); }
Value *logV(R r) { return r.neg(r.div(b(r), normSquared(r, 0))); }

// sqrt: f' = 1/(2w) = (wr - i·wi) / (2|z|), w the principal root.
Value *modulus(R r) { return r.call(Intrinsic::sqrt, {normSquared(r, 0)}); }
Value *rootRe(R r) {
  return r.call(Intrinsic::sqrt, {r.mul(r.c(0.5), r.add(modulus(r), a(r)))});
}
Value *rootIm(R r) {
  Value *Magnitude =
      r.call(Intrinsic::sqrt, {r.mul(r.c(0.5), r.sub(modulus(r), a(r)))});
  return r.call(Intrinsic::copysign, {Magnitude, b(r)});
}
Value *sqrtU(R r) { return r.div(rootRe(r), r.mul(r.c(2.0), modulus(r))); }
Value *sqrtV(R r) {
  return r.neg(r.div(rootIm(r), r.mul(r.c(2.0), modulus(r))));
}

template <Value *(*F)(R)> Value *negated(R r) { return r.neg(F(r)); }

const DerivativeRule Rules[] = {
    // (a + ib)(c + id) = (ac - bd) + i(ad + bc).
    {"slope.complex.mul.re", 4, None, 0, {c, negD, a, negB}, false},
    {"slope.complex.mul.im", 4, None, 0, {d, c, b, a}, false},
    {"slope.complex.div.re",
     4,
     None,
     0,
     {divU1, negated<divV1>, divU2, negated<divV2>},
     true},
    {"slope.complex.div.im", 4, None, 0, {divV1, divU1, divV2, divU2}, true},
    {"slope.complex.exp.re", 2, None, 0, {expU, negated<expV>}, false},
    {"slope.complex.exp.im", 2, None, 0, {expV, expU}, false},
    {"slope.complex.log.re", 2, None, 0, {logU, negated<logV>}, true},
    {"slope.complex.log.im", 2, None, 0, {logV, logU}, true},
    {"slope.complex.sqrt.re", 2, None, 0, {sqrtU, negated<sqrtV>}, true},
    {"slope.complex.sqrt.im", 2, None, 0, {sqrtV, sqrtU}, true},
};

} // namespace

ArrayRef<DerivativeRule> complexRuleTable() { return Rules; }

} // namespace slope
