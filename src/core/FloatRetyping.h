//===- FloatRetyping.h - Floating-point data moved as integers --*- C++ -*-===//
//
// The optimizer moves floating-point data as integers when that is all a
// value's uses need: SSE code that shuffles doubles with _mm_shuffle_epi32
// (Eigen's matrix products do) loads <4 x i32> and bit casts it to
// <2 x double>. Activity follows floating-point values only, so such data
// would carry no derivative. Before differentiation, loads whose every use
// is a bit cast to one floating-point type load that type, and stores of a
// value bit cast from floating point store it as it was; what remains is an
// error (Activity.cpp), never a silent zero.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_FLOATRETYPING_H
#define SLOPE_CORE_FLOATRETYPING_H

namespace llvm {
class Function;
}

namespace slope {

/// Retypes \p F's integer loads and stores of floating-point data; true if
/// anything changed.
bool retypeFloatData(llvm::Function &F);

} // namespace slope

#endif
