//===- DisjointParameters.cpp ---------------------------------------------===//
#include "DisjointParameters.h"
#include "Allocations.h"
#include "Rules.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

namespace {

/// Whether every object \p Pointer may be based on is a parameter, an
/// allocation of the function, or a constant global.
bool basedOnParameterOrLocal(const Value *Pointer) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return all_of(Objects, [](const Value *Object) {
    if (auto *GV = dyn_cast<GlobalVariable>(Object))
      return GV->isConstant();
    return isa<Argument>(Object) || isa<AllocaInst>(Object) ||
           isNoAliasCall(Object);
  });
}

/// Where \p I comes from in the source, or the instruction itself.
std::string describe(const Instruction &I) {
  std::string Text;
  raw_string_ostream OS(Text);
  if (const DebugLoc &Loc = I.getDebugLoc())
    OS << (isa<StoreInst>(I) || isa<MemIntrinsic>(I) ? "a write" : "an access")
       << " at " << Loc->getFilename() << ":" << Loc.getLine();
  else
    I.print(OS);
  return StringRef(Text).trim().str();
}

} // namespace

std::string memoryOutsideParameters(Function &F, const TargetLibraryInfo &TLI) {
  for (Instruction &I : instructions(F)) {
    if (!I.mayReadOrWriteMemory())
      continue;
    bool Within = false;
    if (auto *Load = dyn_cast<LoadInst>(&I))
      Within = Load->isSimple() &&
               basedOnParameterOrLocal(Load->getPointerOperand());
    else if (auto *Store = dyn_cast<StoreInst>(&I))
      Within = Store->isSimple() &&
               basedOnParameterOrLocal(Store->getPointerOperand());
    else if (auto *Transfer = dyn_cast<MemTransferInst>(&I))
      Within = !Transfer->isVolatile() &&
               basedOnParameterOrLocal(Transfer->getRawDest()) &&
               basedOnParameterOrLocal(Transfer->getRawSource());
    else if (auto *Set = dyn_cast<MemSetInst>(&I))
      Within = !Set->isVolatile() && basedOnParameterOrLocal(Set->getRawDest());
    else if (auto *Call = dyn_cast<CallBase>(&I))
      // Math functions with rules write errno at most; the function's own
      // allocations are its own memory.
      Within = isa<DbgInfoIntrinsic>(Call) || Call->isLifetimeStartOrEnd() ||
               isa<AssumeInst>(Call) || findRule(*Call) ||
               asAllocation(*Call, TLI) || releasedPointer(*Call, TLI);
    if (!Within)
      return describe(I);
  }
  return "";
}

void markPointerParametersNoAlias(Function &F) {
  for (Argument &A : F.args())
    if (A.getType()->isPointerTy())
      A.addAttr(Attribute::NoAlias);
}

} // namespace slope
