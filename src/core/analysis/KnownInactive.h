//===- KnownInactive.h - Library calls without derivatives ------*- C++ -*-===//
#ifndef SLOPE_CORE_KNOWNINACTIVE_H
#define SLOPE_CORE_KNOWNINACTIVE_H

namespace llvm {
class CallBase;
class TargetLibraryInfo;
} // namespace llvm

namespace slope {

/// Library functions whose arguments never influence a differentiated
/// result: formatted and stream output, string formatting, clocks, random
/// numbers, environment and process control. Calls to them with active
/// values or differentiated pointers need no derivative code.
bool isKnownInactiveCall(const llvm::CallBase &Call,
                         const llvm::TargetLibraryInfo &TLI);

/// Metadata Slope's own rewrites put on a call whose result they replaced
/// (frexp kept only for its exponent, LibraryRewrites.h): it is inactive.
/// On another instruction (the integer view of a value that verify mode
/// prints) it says that no derivative passes through it either, so a
/// derivative that holds it can be differentiated again.
inline constexpr const char *InactiveCallMetadata = "slope.inactive";

} // namespace slope

#endif
