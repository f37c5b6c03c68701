//===- MarkerCall.h - The calls slope.hpp leaves for the pass ---*- C++ -*-===//
//
// slope::grad<F>(...) compiles to a call of slope::detail::reverse_marker
// (derivative<F> to forward_marker); see include/slope/detail/marker.hpp for
// the operand layout.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_MARKERCALL_H
#define SLOPE_PASS_MARKERCALL_H

#include "DiffRequest.h"

#include "llvm/IR/Instructions.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace slope {

struct MarkerCall {
  /// A call, or an invoke when the API call sits in a try block.
  llvm::CallBase *Call = nullptr;
  DiffRequest Request;
  /// Where the primal result goes (a null constant when unused).
  llvm::Value *ResultOut = nullptr;
  /// Forward mode: where the result's tangent goes.
  llvm::Value *TangentOut = nullptr;
  llvm::SmallVector<llvm::Value *, 8> Primals;
  /// One per parameter and lane (Request.Width lanes), lane by lane.
  llvm::SmallVector<llvm::Value *, 8> Shadows;
  /// Reverse mode from slope.hpp: per parameter, the bytes the caller says
  /// may be accessed through it (0 when unknown); empty when not passed.
  llvm::SmallVector<llvm::Value *, 8> Extents;
  llvm::Value *shadow(unsigned Lane, unsigned Param) const {
    return Shadows[Lane * Primals.size() + Param];
  }
};

/// The mode a marker declaration stands for, if \p F is one.
std::optional<DiffMode> markerMode(const llvm::Function &F);

/// Decodes a marker call; an error names what does not fit.
llvm::Expected<MarkerCall> parseMarker(llvm::CallBase &Call, DiffMode Mode);

} // namespace slope

#endif
