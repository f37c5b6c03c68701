//===- PassPlugin.cpp - Entry point of SlopePass.so for opt ---------------===//
#include "SlopePass.h"

#include "llvm/Passes/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Slope", "0.1",
          [](llvm::PassBuilder &PB) { slope::registerSlopePass(PB); }};
}
