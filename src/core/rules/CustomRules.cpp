//===- CustomRules.cpp ----------------------------------------------------===//
#include "CustomRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace slope {

/// The functions a global's initializer lists: one function, or an array
/// or struct of them (null where an entry is something else).
static SmallVector<Function *, 3> listedFunctions(GlobalVariable &GV) {
  SmallVector<Function *, 3> Functions;
  Constant *Init = GV.getInitializer();
  auto AsFunction = [](Value *V) {
    return dyn_cast<Function>(V->stripPointerCastsAndAliases());
  };
  if (isa<ConstantArray>(Init) || isa<ConstantStruct>(Init)) {
    for (Use &Entry : Init->operands())
      Functions.push_back(AsFunction(Entry.get()));
  } else {
    Functions.push_back(AsFunction(Init));
  }
  return Functions;
}

void CustomRules::readEnzymeGlobal(GlobalVariable &GV) {
  StringRef Name = GV.getName();
  SmallVector<Function *, 3> Listed = listedFunctions(GV);
  if (Name.starts_with("__enzyme_inactivefn")) {
    for (Function *F : Listed)
      if (F)
        Inactive.insert(F);
  } else if (Name.starts_with("__enzyme_register_gradient")) {
    if (Listed.size() != 3 || !Listed[0] || !Listed[1] || !Listed[2])
      return;
    CustomRule &Rule = Rules[Listed[0]];
    Rule.EnzymeAugmented = Listed[1];
    Rule.EnzymeReverse = Listed[2];
  } else if (Name.starts_with("__enzyme_register_derivative")) {
    if (Listed.size() != 2 || !Listed[0] || !Listed[1])
      return;
    Rules[Listed[0]].EnzymeForward = Listed[1];
  } else {
    return;
  }
  Globals.push_back(&GV);
}

CustomRules::CustomRules(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getName().starts_with("__enzyme_") && GV.hasInitializer()) {
      readEnzymeGlobal(GV);
      continue;
    }
    bool OnlyShadows = GV.getSection() == ".slope.rules.shadows";
    bool EveryCall = GV.getSection() == ".slope.rules.always";
    if ((GV.getSection() != ".slope.rules" && !OnlyShadows && !EveryCall) ||
        !GV.hasInitializer())
      continue;
    SmallVector<Function *, 3> Entry = listedFunctions(GV);
    if (is_contained(Entry, nullptr))
      continue;
    if (Entry.size() == 3) {
      Rules[Entry[0]].Forward = Entry[1];
      Rules[Entry[0]].Pullback = Entry[2];
      Rules[Entry[0]].PullbackReadsOnlyShadows = OnlyShadows;
    } else if (Entry.size() == 4) {
      // {f, forward, augmented forward, reverse} in Enzyme's conventions
      // (slope/checkpoint.hpp registers its loops this way).
      CustomRule &Rule = Rules[Entry[0]];
      Rule.EnzymeForward = Entry[1];
      Rule.EnzymeAugmented = Entry[2];
      Rule.EnzymeReverse = Entry[3];
      Rule.ForwardRunsPrimal = true;
      Rule.AppliesToEveryCall = EveryCall;
    } else {
      continue;
    }
    Globals.push_back(&GV);
  }
}

const CustomRule *customRuleOfCall(const CallBase &Call,
                                   const CustomRules *Rules) {
  const Function *Callee = Call.getCalledFunction();
  return Rules && Callee ? Rules->ruleFor(Callee) : nullptr;
}

DebugLoc ruleCallLocation(const CallBase &Call) {
  if (DebugLoc Loc = Call.getDebugLoc())
    return Loc;
  if (DISubprogram *Scope = Call.getFunction()->getSubprogram())
    return DILocation::get(Call.getContext(), 0, 0, Scope);
  return DebugLoc();
}

} // namespace slope
