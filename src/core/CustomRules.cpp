//===- CustomRules.cpp ----------------------------------------------------===//
#include "CustomRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace slope {

CustomRules::CustomRules(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getSection() != ".slope.rules" || !GV.hasInitializer())
      continue;
    auto *Entries = dyn_cast<ConstantArray>(GV.getInitializer());
    if (!Entries || Entries->getNumOperands() != 3)
      continue;
    auto Entry = [&](unsigned I) {
      return dyn_cast<Function>(
          Entries->getOperand(I)->stripPointerCastsAndAliases());
    };
    Function *Target = Entry(0), *Forward = Entry(1), *Pullback = Entry(2);
    if (Target && Forward && Pullback)
      Rules[Target] = {Forward, Pullback};
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
