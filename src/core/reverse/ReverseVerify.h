//===- ReverseVerify.h - Checking what the reverse sweep does not tape -*-===//
//
// Verify mode (-fplugin-arg-slope-verify, or -passes='slope<verify>' in
// opt): every primal value the reverse sweep gets without reading it from
// the tape -- loaded again, recomputed, taken from a loop counter, a
// recomputed branch or trip count -- is taped as well, and the two are
// compared where the reverse sweep uses them. A difference in any bit
// prints the function, the source location (with -g), how the value was
// obtained and both values, and aborts.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_REVERSEVERIFY_H
#define SLOPE_CORE_REVERSEVERIFY_H

#include "llvm/IR/IRBuilder.h"

namespace slope {

/// Whether derivatives generated from now on check their shortcuts.
bool verifyReverseSweeps();
void setVerifyReverseSweeps(bool Verify);

/// At \p B: aborts with a report when \p Cheap (what the reverse sweep
/// computed, in the way \p How says) and \p Taped (the primal's value) of
/// \p Subject differ in any bit.
void emitVerifyCheck(llvm::IRBuilderBase &B, llvm::Value *Cheap,
                     llvm::Value *Taped, const llvm::Instruction &Subject,
                     llvm::StringRef How);

} // namespace slope

#endif
