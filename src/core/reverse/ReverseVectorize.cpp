//===- ReverseVectorize.cpp -----------------------------------------------===//
#include "ReverseVectorize.h"
#include "AdjointWindows.h"

#include "llvm/Analysis/LoopAccessAnalysis.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"

using namespace llvm;

namespace slope {

PreservedAnalyses ReverseLoopVectorizePass::run(Function &F,
                                                FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(ReverseSweepAttr))
    return PreservedAnalyses::all();
  // Access information computed with the hoisted tests would be reused.
  PreservedAnalyses WithoutAccessInfo = PreservedAnalyses::all();
  WithoutAccessInfo.abandon<LoopAccessAnalysis>();
  FAM.invalidate(F, WithoutAccessInfo);
  bool Hoist = VectorizerParams::HoistRuntimeChecks;
  VectorizerParams::HoistRuntimeChecks = false;
  PreservedAnalyses Kept = LoopVectorizePass().run(F, FAM);
  VectorizerParams::HoistRuntimeChecks = Hoist;
  // What was computed with the tests where inner loops start goes too.
  Kept.abandon<LoopAccessAnalysis>();
  return Kept;
}

} // namespace slope
