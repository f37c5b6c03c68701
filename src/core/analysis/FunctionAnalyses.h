//===- FunctionAnalyses.h - Analyses of a function, built in place -*- C++
//-*-===//
//
// The transforms on finished derivatives (adjoint windows, private adjoint
// buffers) change loops one at a time and build their analyses afresh
// after each change, without a pass manager's caching.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_FUNCTIONANALYSES_H
#define SLOPE_CORE_FUNCTIONANALYSES_H

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace slope {

struct FunctionAnalyses {
  explicit FunctionAnalyses(llvm::Function &F)
      : TLII(llvm::Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F),
        AC(F), DT(F), LI(DT), SE(F, TLI, AC, DT, LI) {}
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ScalarEvolution SE;
};

} // namespace slope

#endif
