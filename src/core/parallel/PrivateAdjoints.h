//===- PrivateAdjoints.h - A thread's adjoints in its own buffer -*- C++
//-*-===//
#ifndef SLOPE_CORE_PRIVATEADJOINTS_H
#define SLOPE_CORE_PRIVATEADJOINTS_H

#include "llvm/IR/PassManager.h"

namespace slope {

/// In the reverse part of an OpenMP region's body every adjoint of shared
/// memory is an atomic add (OpenMP.h): other threads may add to the same
/// element. When every thread adds to the same elements at once (the pairs
/// of an n-body sum), the adds contend for cache lines and a team is slower
/// than one thread. This pass gives a loop nest of the reverse part a
/// zeroed buffer of its own for an array's adjoints: the atomic adds become
/// plain adds into the buffer, and where the nest ends the buffer's nonzero
/// elements are added atomically into the shared adjoints, once each.
///
/// Legal when nothing else in the nest may read or write the array's
/// adjoints (the thread would miss its own additions) and the nest does not
/// synchronize with other threads (they must see the additions at their
/// barriers): every other access is to the thread's stack, or alias
/// analysis tells it apart (the tape's entries are in an alias scope of
/// their own, the reverse part's record is a noalias parameter), or it is
/// provably (ScalarEvolution) off the buffer's range; and the nest calls
/// nothing that touches memory. The range is computed before
/// the nest from its loops' trip counts.
class PrivateAdjointsPass : public llvm::PassInfoMixin<PrivateAdjointsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

/// The transform itself; returns how many buffers it introduced.
unsigned privatizeAdjoints(llvm::Function &F);

} // namespace slope

#endif
