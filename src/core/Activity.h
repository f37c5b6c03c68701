//===- Activity.h - Which values carry derivatives --------------*- C++ -*-===//
//
// A value is active when it is floating-point, depends on an active argument
// (it is "varied") and influences the differentiated result ("useful").
// Only active values get tangents or adjoints.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_ACTIVITY_H
#define SLOPE_CORE_ACTIVITY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

namespace slope {

/// The operands through which derivatives flow: all operands of arithmetic
/// and casts, the chosen values of a select, phi incomings, call arguments.
llvm::SmallVector<llvm::Use *, 4> differentiableOperands(llvm::Instruction &I);

class ActivityInfo {
public:
  /// Analyses \p F with the arguments flagged in \p ActiveArgs active. The
  /// returned value is the output when \p ResultIsOutput. Fails, naming the
  /// construct, when a varied value reaches something Slope cannot
  /// differentiate (which could otherwise give a silently wrong result).
  static llvm::Expected<ActivityInfo> analyze(llvm::Function &F,
                                              llvm::ArrayRef<bool> ActiveArgs,
                                              bool ResultIsOutput);

  bool isActive(const llvm::Value *V) const { return Active.contains(V); }

private:
  llvm::SmallPtrSet<const llvm::Value *, 32> Active;
};

} // namespace slope

#endif
