//===- CheckpointedLoops.h - slope::checkpointed in the reverse -*- C++ -*-===//
//
// slope::checkpointed (include/slope/checkpoint.hpp) registers its loop
// with rules in Enzyme's conventions: the reverse sweep calls the header's
// augmented forward and its binomial checkpointing like any split rule.
// What the plugin adds: a remark with what the reverse keeps and re-runs,
// and an error where a step is visibly not re-executable.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_CHECKPOINTEDLOOPS_H
#define SLOPE_CORE_CHECKPOINTEDLOOPS_H

#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <string>

namespace slope {

/// Whether \p Call runs slope::checkpointed's loop.
bool isCheckpointedLoop(const llvm::CallBase &Call);

/// What the reverse of checkpointed loop \p Call keeps and re-runs: with
/// the step count and snapshot count constant, in numbers.
std::string checkpointedLoopCost(const llvm::CallBase &Call);

/// Why the steps of checkpointed loop \p Call cannot be re-run from a
/// snapshot (they write a global the snapshot does not hold), if visible.
std::optional<std::string> notReExecutable(const llvm::CallBase &Call);

} // namespace slope

#endif
