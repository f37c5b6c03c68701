//===- Preprocess.h - Preparing functions for differentiation ---*- C++ -*-===//
#ifndef SLOPE_CORE_PREPROCESS_H
#define SLOPE_CORE_PREPROCESS_H

#include "llvm/IR/Function.h"

namespace llvm {
class TargetLibraryInfo;
}

namespace slope {

class CustomRules;

/// Clones \p Target into a function that is safe to transform: without
/// optnone/noinline (at -O0 the original carries them), with callees that
/// have a visible body inlined, simplified (SROA, EarlyCSE, InstCombine,
/// SimplifyCFG) so that -O0 code looks like optimized code, and with loops
/// in canonical form (preheader, one latch, dedicated exits). The caller
/// erases the clone when done.
llvm::Function *prepareClone(llvm::Function &Target, const CustomRules *Rules,
                             const llvm::TargetLibraryInfo &TLI);

/// A function that only calls \p Target (which has a custom derivative):
/// what is differentiated when grad<Target> itself is asked for.
llvm::Function *makeCallWrapper(llvm::Function &Target);

/// Runs the simplification pipeline on \p F (used on generated code too).
/// \p ForDifferentiation adds scalarization of vector code and ends with
/// LoopSimplify.
void simplify(llvm::Function &F, bool ForDifferentiation = false);

/// simplify, then the passes of the function pipeline that see through
/// memory (GVN, dead store elimination): for finished derivatives.
void simplifyDerivative(llvm::Function &F);

/// Aggressive dead code elimination alone (dead cycles of phis included).
void removeDeadCode(llvm::Function &F);

} // namespace slope

#endif
