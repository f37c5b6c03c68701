//===- ReverseVectorize.h - Vectorizing the reverse sweeps' loops -*- C++
//-*-===//
//
// A reverse sweep runs every loop nest backwards: its outer loops walk
// memory downward. For an inner loop whose accesses may overlap (the
// shadows of plain pointer parameters), LLVM's loop access analysis
// widens the run-time overlap test to the whole nest so that it can be
// hoisted out of the outer loop; for an outer loop with a negative stride
// that widened test is the constant "may overlap" (LLVM 19), and the
// vector loop never runs. This pass vectorizes the loops of reverse sweeps
// first, with the test made where the inner loop starts instead (a few
// compares per execution of the inner loop); the optimizer's own loop
// vectorizer then leaves those loops alone.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_REVERSEVECTORIZE_H
#define SLOPE_CORE_REVERSEVECTORIZE_H

#include "llvm/IR/PassManager.h"

namespace slope {

class ReverseLoopVectorizePass
    : public llvm::PassInfoMixin<ReverseLoopVectorizePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace slope

#endif
