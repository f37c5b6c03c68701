//===- InvariantLoads.h - Loads no write in their loop changes --*- C++ -*-===//
#ifndef SLOPE_CORE_INVARIANTLOADS_H
#define SLOPE_CORE_INVARIANTLOADS_H

#include "llvm/IR/Function.h"

namespace slope {

class LaterWrites;

/// Moves each simple load of \p F that runs in a loop, from an address
/// computed before it (or by arithmetic on such values), to the loop's
/// preheader when no write in the loop may change its memory by what
/// \p Later knows, and it runs in every execution of the loop or is safe
/// to run there. Returns how many loads moved. The CFG is unchanged, so
/// \p Later's dominator tree and loops stay valid; its alias answers for
/// the moved loads do not (ask a new LaterWrites).
unsigned hoistInvariantLoads(llvm::Function &F, LaterWrites &Later);

} // namespace slope

#endif
