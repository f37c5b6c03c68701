//===- CustomRules.h - User-supplied derivatives ----------------*- C++ -*-===//
//
// SLOPE_CUSTOM_DERIVATIVE(f, fwd, pb) leaves a global in section
// ".slope.rules" holding f and two adapters (see include/slope/custom.hpp):
//   forward(x..., companion..., R *value, R *tangent)
//   pullback(x..., companion..., R adjoint, P *adjoint_out...)
// where a companion is a scalar's tangent, a pointer's shadow, or an ignored
// byte. A global of four, {f, forward, augmented, reverse}, registers rules
// in Enzyme's conventions (EnzymeRules.h) the same way. SLOPE_INACTIVE
// functions are never differentiated.
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_CUSTOMRULES_H
#define SLOPE_CORE_CUSTOMRULES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

namespace slope {

struct CustomRule {
  /// SLOPE_CUSTOM_DERIVATIVE's adapters.
  llvm::Function *Forward = nullptr;
  llvm::Function *Pullback = nullptr;
  /// Rules registered through Enzyme's globals, called with Enzyme's
  /// conventions (EnzymeRules.h).
  llvm::Function *EnzymeForward = nullptr;
  llvm::Function *EnzymeAugmented = nullptr;
  llvm::Function *EnzymeReverse = nullptr;
  /// The Enzyme-convention forward rule computes f's effects as well as
  /// the tangents (four-entry registrations): it runs instead of f.
  bool ForwardRunsPrimal = false;
  /// The pullback reads only shadows and non-pointer arguments
  /// (SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY): later writes to the primal
  /// memory its pointers reach do not matter to it.
  bool PullbackReadsOnlyShadows = false;
  /// Every call runs the rules, also one that passes no differentiated
  /// data: the rules keep books across calls (an MPI_Wait completes what an
  /// MPI_Isend's rules started).
  bool AppliesToEveryCall = false;

  bool servesForward() const { return Forward || EnzymeForward; }
  /// Whether the forward rule serves \p Width lanes at once: one that runs
  /// instead of the call would run it once per lane. Where it cannot, the
  /// target's body is differentiated (when it has one).
  bool forwardServesLanes(unsigned Width) const {
    return Forward || (EnzymeForward && (!ForwardRunsPrimal || Width == 1));
  }
  /// Whether the reverse rules serve \p Width lanes: a pullback runs once
  /// per lane, but an augmented forward runs the call once and keeps one
  /// record for one reverse part. Where they cannot, the target's body is
  /// differentiated (when it has one).
  bool reverseServesLanes(unsigned Width) const {
    return Pullback || (EnzymeReverse && Width == 1);
  }
  bool servesReverse() const { return Pullback || EnzymeReverse; }
};

class CustomRules {
public:
  /// Reads the rule globals of \p M.
  explicit CustomRules(llvm::Module &M);

  const CustomRule *ruleFor(const llvm::Function *F) const {
    auto It = Rules.find(F);
    return It == Rules.end() ? nullptr : &It->second;
  }
  bool isInactive(const llvm::Function *F) const {
    return Inactive.contains(F);
  }
  void markInactive(llvm::Function *F) { Inactive.insert(F); }
  /// Whether calls to \p F are handled without looking into its body.
  bool isOpaque(const llvm::Function *F) const {
    return ruleFor(F) || isInactive(F);
  }

  /// The rule globals (to be removed once derivatives are generated).
  llvm::ArrayRef<llvm::GlobalVariable *> globals() const { return Globals; }

private:
  /// __enzyme_register_gradient_* / _derivative_* and __enzyme_inactivefn*.
  void readEnzymeGlobal(llvm::GlobalVariable &GV);

  llvm::DenseMap<const llvm::Function *, CustomRule> Rules;
  llvm::SmallPtrSet<const llvm::Function *, 8> Inactive;
  llvm::SmallVector<llvm::GlobalVariable *, 4> Globals;
};

/// The rules registered in \p F's module, or the custom rule of a call.
const CustomRule *customRuleOfCall(const llvm::CallBase &Call,
                                   const CustomRules *Rules);

/// The debug location for a call to a rule adapter standing for \p Call.
llvm::DebugLoc ruleCallLocation(const llvm::CallBase &Call);

} // namespace slope

#endif
