//===- DeviceLowering.h - Derivatives legal on NVPTX ------------*- C++ -*-===//
//
// Rules write partials with generic LLVM intrinsics (llvm.cos for the
// derivative of sin). The NVPTX backend selects some of them (sqrt, fabs,
// fma, min/max, rounding) but not the transcendental ones, and device code
// must never call host libm. In device modules, generated code calls
// CUDA's libdevice (__nv_cos, __nv_expf, ...) for those instead.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_DEVICELOWERING_H
#define SLOPE_CORE_DEVICELOWERING_H

#include "llvm/IR/Function.h"

namespace slope {

/// Rewrites, in a function of an NVPTX module, the intrinsic calls the
/// backend cannot select into libdevice calls; elsewhere does nothing.
void lowerForDevice(llvm::Function &F);

} // namespace slope

#endif
