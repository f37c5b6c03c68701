//===- Target.cpp ---------------------------------------------------------===//
#include "Target.h"
#include "OpenMP.h"

#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace slope {

TargetFacts targetFacts(const Module &M) {
  Triple T(M.getTargetTriple());
  TargetFacts Facts;
  Facts.GPU = T.isNVPTX() || T.isAMDGPU();
  Facts.OtherThreadsWrite = Facts.GPU;
  Facts.HasSharedMemory = Facts.GPU;
  Facts.RunsCodeAtThreadExit =
      !Facts.GPU && T.isOSLinux() && T.isGNUEnvironment();
  Facts.ReportsAtRunTime = !Facts.GPU;
  Facts.HasRealloc = !Facts.GPU;
  return Facts;
}

bool otherThreadsWrite(const Function &F) {
  return targetFacts(*F.getParent()).OtherThreadsWrite || runsInParallel(F);
}

} // namespace slope
