//===- AggregateReturns.h - Struct results through memory -------*- C++ -*-===//
//
// A call that stays a call (recursion) and returns a struct of
// floating-point values by value would need derivatives of aggregate SSA
// values. Instead, such a call becomes a call of a copy of the callee that
// stores its result through an extra pointer parameter into a stack slot of
// the caller, from which the caller loads the fields: the derivatives then
// flow through memory and its shadows, like sret results.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_AGGREGATERETURNS_H
#define SLOPE_CORE_AGGREGATERETURNS_H

#include "llvm/IR/Function.h"

namespace slope {

/// Rewrites the calls in \p F that return aggregates holding floating-point
/// data from functions with a body.
void returnAggregatesThroughMemory(llvm::Function &F);

} // namespace slope

#endif
