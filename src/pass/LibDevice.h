//===- LibDevice.h - libdevice functions derivatives need -------*- C++ -*-===//
//
// clang links CUDA's libdevice into device code before optimizing, but only
// the functions the source calls. A derivative may call others (__nv_cos
// for the derivative of __nv_sin): those are linked in afterwards from the
// same bitcode files, internalized like clang does.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_PASS_LIBDEVICE_H
#define SLOPE_PASS_LIBDEVICE_H

#include "llvm/IR/Module.h"

#include <string>
#include <vector>

namespace slope {

/// The bitcode files clang links into this compilation (the plugin sets
/// them from -mlink-builtin-bitcode).
void setBuiltinBitcodeFiles(std::vector<std::string> Files);

/// Links the libdevice functions \p M calls but does not define. Returns
/// an error message naming what could not be linked, or "".
std::string linkMissingLibDevice(llvm::Module &M);

} // namespace slope

#endif
