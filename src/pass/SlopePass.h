//===- SlopePass.h - The module pass that generates derivatives -*- C++ -*-===//
#ifndef SLOPE_PASS_SLOPEPASS_H
#define SLOPE_PASS_SLOPEPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace slope {

/// Replaces every marker call with a call to the generated derivative.
class SlopePass : public llvm::PassInfoMixin<SlopePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Prints each derivative the pass generates (name and IR) to stderr: the
/// plugin option -fplugin-arg-slope-dump.
void setDumpDerivatives(bool Dump);

/// A compile step of an -flto build: requests whose target is defined in
/// another file are left for the link, where the pass runs again (loaded
/// into the linker with --load-pass-plugin=SlopePass.so).
void setDeferUndefinedTargets(bool Defer);

/// Makes "slope" parseable in -passes= and runs the pass at every -O level
/// once the function simplification pipeline is done, and early in the
/// full-LTO link pipeline.
void registerSlopePass(llvm::PassBuilder &PB);

} // namespace slope

#endif
