//===- Activity.h - Which values carry derivatives --------------*- C++ -*-===//
//
// A floating-point value is active when it depends on an active input
// ("varied") and influences an output ("useful"). Memory is tracked through
// pointers with shadows: slope::dup arguments, allocations made in the
// function, and everything derived from them (GEPs, phis, selects, pointers
// loaded from shadowed memory). Floating-point data loaded through a
// shadowed pointer may be active; data stored through one is an output.
// Only active values get tangents or adjoints.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_ACTIVITY_H
#define SLOPE_CORE_ACTIVITY_H

#include "DiffRequest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

namespace llvm {
class GlobalVariable;
class LoadInst;
class StoreInst;
class TargetLibraryInfo;
} // namespace llvm

namespace slope {

class CustomRules;

/// The operands through which derivatives flow: all operands of arithmetic
/// and casts, the chosen values of a select, phi incomings, call arguments.
llvm::SmallVector<llvm::Use *, 4> differentiableOperands(llvm::Instruction &I);

/// The instructions that use memory reached from \p Root through address
/// arithmetic (GEPs, phis, selects, address-space casts); only those of
/// \p In when given (a global is used by many functions). \p OnAddress
/// sees each address instruction passed through.
void collectAccesses(
    llvm::Value *Root, llvm::SmallVectorImpl<llvm::Instruction *> &Out,
    const llvm::Function *In = nullptr,
    llvm::function_ref<void(llvm::Instruction &)> OnAddress = nullptr);

class ActivityInfo {
public:
  /// Analyses \p F whose first parameters take \p Args. The returned value
  /// is an output when \p ResultIsOutput. Fails, naming the construct, when
  /// derivatives would flow where Slope cannot follow them (which could
  /// otherwise give a silently wrong result).
  static llvm::Expected<ActivityInfo>
  analyze(llvm::Function &F, llvm::ArrayRef<ArgActivity> Args,
          bool ResultIsOutput, const llvm::TargetLibraryInfo &TLI,
          const CustomRules *Rules);

  bool isActive(const llvm::Value *V) const { return Active.contains(V); }
  /// A pointer whose pointee has a shadow (adjoints or tangents).
  bool isShadowed(const llvm::Value *V) const { return Shadowed.contains(V); }
  /// For an integer store through a shadowed pointer that copies an
  /// adjacent integer load from shadowed memory: that load.
  llvm::LoadInst *integerCopySource(const llvm::StoreInst *S) const {
    return IntegerCopies.lookup(S);
  }
  /// GPU shared arrays with shadows.
  llvm::ArrayRef<llvm::GlobalVariable *> sharedArrays() const {
    return SharedArrays;
  }

  /// \p New takes the place of \p Old (an emitter replaced a call).
  void replaceValue(const llvm::Value *Old, const llvm::Value *New) {
    if (Active.erase(Old))
      Active.insert(New);
    if (Shadowed.erase(Old))
      Shadowed.insert(New);
  }

private:
  llvm::SmallPtrSet<const llvm::Value *, 32> Active;
  llvm::SmallPtrSet<const llvm::Value *, 32> Shadowed;
  llvm::DenseMap<const llvm::StoreInst *, llvm::LoadInst *> IntegerCopies;
  llvm::SmallVector<llvm::GlobalVariable *, 2> SharedArrays;
};

} // namespace slope

#endif
