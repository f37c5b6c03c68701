//===- Preprocess.cpp -----------------------------------------------------===//
#include "Preprocess.h"
#include "AggregateReturns.h"
#include "Allocations.h"
#include "CustomRules.h"
#include "DynamicAllocas.h"
#include "FloatRetyping.h"
#include "LibraryRewrites.h"
#include "OpenMP.h"
#include "Rules.h"
#include "SeamCut.h"
#include "TapeCache.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/FixIrreducible.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

using namespace llvm;

namespace slope {
namespace {

/// Inlining stops once the clone has this many instructions, or after this
/// many rounds (one per level of nesting: accessors calling accessors).
/// Calls left over go through their callees' derivatives, or are errors
/// where that cannot be done (Activity.cpp): a limit changes compile time,
/// never a gradient.
constexpr unsigned InlineBudget = 32000;
constexpr unsigned InlineRounds = 64;

unsigned instructionCount(const Function &F) {
  unsigned N = 0;
  for (const BasicBlock &BB : F)
    N += BB.size();
  return N;
}

bool isInlinable(const CallBase &Call, const Function &Caller,
                 const Function &Original, const CustomRules *Rules) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isInterposable() &&
         Callee != &Caller && Callee != &Original && !Callee->isVarArg() &&
         !(Rules && Rules->isOpaque(Callee)) && !findRule(Call) &&
         !isParallelRegion(Call) && !isParallelRuntimeHelper(*Callee) &&
         !isKeptTapeHelper(*Callee) && !isSlopeHeapShadowCall(*Callee) &&
         isInlineViable(*const_cast<Function *>(Callee)).isSuccess();
}

/// Callees this small (accessors, the API's wrappers, Slope's helpers)
/// are inlined past the budget: left as calls they would cost more, and
/// some return pointers only inlining gives shadows.
constexpr unsigned SmallCallee = 64;

/// Inlines what can be; returns whether anything was.
bool inlineCallees(Function &Clone, const Function &Original,
                   const CustomRules *Rules) {
  bool Inlined = false, OverBudget = false;
  unsigned SimplifiedAt = 0;
  for (unsigned Round = 0; Round < InlineRounds; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (BasicBlock &BB : Clone)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (isInlinable(*Call, Clone, Original, Rules))
            Calls.push_back(Call);
    bool Changed = false;
    for (CallBase *Call : Calls) {
      bool Small = instructionCount(*Call->getCalledFunction()) <= SmallCallee;
      if (!Small && !OverBudget) {
        if (unsigned Size = instructionCount(Clone); Size > InlineBudget) {
          // -O0 code (every value in a stack slot) is several times its
          // simplified size: simplify before giving up, then collect the
          // calls again (simplification may have removed some).
          if (Size >= SimplifiedAt + InlineBudget / 4) {
            simplify(Clone, /*ForDifferentiation=*/false);
            SimplifiedAt = instructionCount(Clone);
            OverBudget = SimplifiedAt > InlineBudget;
            Changed = true;
            break;
          }
          OverBudget = true;
        }
      }
      if (!Small && OverBudget)
        continue;
      InlineFunctionInfo Info;
      Changed |= InlineFunction(*Call, Info).isSuccess();
    }
    Inlined |= Changed;
    if (!Changed)
      break;
  }
  return Inlined;
}

/// Whether a call of \p Callee can never unwind: it and every function it
/// calls (followed through bodies, up to a bound) contain nothing that may
/// throw. At -O0 nothing is marked nounwind, so a recursive numeric helper
/// called inside a try block is an invoke.
bool cannotUnwind(const Function *Callee) {
  constexpr unsigned MaxFunctions = 64;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work;
  auto visit = [&](const Function *F) {
    if (!F)
      return false;
    if (F->doesNotThrow() || Seen.contains(F))
      return true;
    if (F->isDeclaration() || F->isInterposable() ||
        Seen.size() == MaxFunctions)
      return false;
    Seen.insert(F);
    Work.push_back(F);
    return true;
  };
  if (!visit(Callee))
    return false;
  while (!Work.empty())
    for (const Instruction &I : instructions(*Work.pop_back_val())) {
      const auto *Call = dyn_cast<CallBase>(&I);
      if (Call ? !Call->doesNotThrow() && !visit(Call->getCalledFunction())
               : I.mayThrow())
        return false;
    }
  return true;
}

/// Derivatives do not run cleanups: a call that could unwind into one
/// (a destructor call, at -O0 around any call in a scope with a
/// std::vector) is a plain call in the copy Slope differentiates. An
/// exception then leaves the derivative without running the function's
/// destructors. An allocation that could throw is a plain call even when
/// a handler would catch it: out of memory ends the program there. So is a
/// call that cannot unwind. Other handlers stay.
void dropCleanups(Function &F, const TargetLibraryInfo &TLI) {
  for (BasicBlock &BB : make_early_inc_range(F))
    if (auto *Invoke = dyn_cast<InvokeInst>(BB.getTerminator())) {
      auto *Pad =
          dyn_cast<LandingPadInst>(Invoke->getUnwindDest()->getFirstNonPHI());
      if ((Pad && Pad->isCleanup() && Pad->getNumClauses() == 0) ||
          asAllocation(*Invoke, TLI) ||
          cannotUnwind(Invoke->getCalledFunction()))
        changeToCall(Invoke);
    }
}

/// A derivative used inside the target (nested differentiation) brings
/// its seam markers along when inlined; they mark nothing here.
void dropSeams(Function &F) {
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && seamIndex(*Call))
      Call->eraseFromParent();
}

/// A cycle entered at more than one block (a goto into a loop, Duff's
/// device) has no header for the reverse sweep to count iterations at.
bool hasIrreducibleCycles(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  ReversePostOrderTraversal<Function *> RPO(&F);
  return containsIrreducibleCFG<const BasicBlock *>(RPO, LI);
}

/// Analysis managers as a fresh PassBuilder registers them, linked to each
/// other: a function pipeline run outside the optimizer's needs the module
/// level too (alias analysis asks for it).
struct Analyses {
  PassBuilder PB; // the registered analyses refer to it
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  Analyses() {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

} // namespace

void simplify(Function &F, bool ForDifferentiation) {
  Analyses A;
  FunctionAnalysisManager &FAM = A.FAM;

  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  // Slope differentiates scalars: vector values (a struct of two floats
  // is returned as <2 x float>; SROA forms vectors) become their elements.
  // Shuffles of floating-point data done on integer vectors first become
  // shuffles of the data's own type, and its loads and stores that type
  // (FloatRetyping.h): scalarized as integers, the data would be lost.
  if (ForDifferentiation) {
    FPM.addPass(InstCombinePass());
    FPM.run(F, FAM);
    retypeFloatData(F);
    FPM = FunctionPassManager();
    ScalarizerPassOptions Options;
    Options.ScalarizeLoadStore = true;
    FPM.addPass(ScalarizerPass(Options));
  }
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  // SimplifyCFG turns the reverse sweep's branches into selects; fold what
  // that exposes.
  FPM.addPass(InstCombinePass());
  FPM.addPass(ADCEPass());
  FPM.run(F, FAM);
  if (!ForDifferentiation)
    return;
  // Irreducible cycles become loops with one header that a new block
  // dispatches to (LowerSwitch first: the transform wants branches).
  FunctionPassManager Loops;
  if (hasIrreducibleCycles(F)) {
    Loops.addPass(LowerSwitchPass());
    Loops.addPass(FixIrreduciblePass());
  }
  Loops.addPass(LoopSimplifyPass());
  Loops.run(F, FAM);
}

void simplifyDerivative(Function &F) {
  simplify(F);
  // SlopePass runs where the optimizer's pipeline starts: the passes that
  // forward values through memory and drop dead stores have run on the
  // primal but would not on the derivative. Its reverse sweep reads,
  // zeroes and adds to shadows that those passes see through (an
  // increment's shadow read, zeroed and written back unchanged).
  Analyses A;
  FunctionPassManager FPM;
  FPM.addPass(GVNPass());
  FPM.addPass(DSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.run(F, A.FAM);
}

void removeDeadCode(Function &F) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  FunctionPassManager FPM;
  FPM.addPass(ADCEPass());
  FPM.run(F, FAM);
}

Function *makeCallWrapper(Function &Target) {
  Function *Wrapper =
      Function::Create(Target.getFunctionType(), GlobalValue::InternalLinkage,
                       Target.getName() + ".slope.primal", Target.getParent());
  IRBuilder<> B(BasicBlock::Create(Target.getContext(), "entry", Wrapper));
  SmallVector<Value *, 8> Args;
  for (Argument &A : Wrapper->args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Target, Args);
  Call->setCallingConv(Target.getCallingConv());
  if (Call->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Wrapper;
}

Function *prepareClone(Function &Target, const CustomRules *Rules,
                       const TargetLibraryInfo &TLI) {
  ValueToValueMapTy Map;
  Function *Clone = CloneFunction(&Target, Map);
  Clone->setName(Target.getName() + ".slope.primal");
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->removeFnAttr(Attribute::OptimizeNone);
  Clone->removeFnAttr(Attribute::NoInline);
  dropCleanups(*Clone, TLI);
  exposeParallelRegions(*Clone);
  // Regions in callees arrive with them.
  if (inlineCallees(*Clone, Target, Rules))
    exposeParallelRegions(*Clone);
  dropCleanups(*Clone, TLI);
  dropSeams(*Clone);
  simplify(*Clone, /*ForDifferentiation=*/true);
  // Simplification turns calls through known function pointers (at -O0,
  // held in locals and structs) into direct calls: inline those too.
  if (inlineCallees(*Clone, Target, Rules)) {
    exposeParallelRegions(*Clone);
    dropCleanups(*Clone, TLI);
    simplify(*Clone, /*ForDifferentiation=*/true);
  }
  forgetKeptTape(*Clone);
  returnAggregatesThroughMemory(*Clone);
  moveDynamicAllocasToHeap(*Clone);
  rewriteLibraryCalls(*Clone, TLI);
  simplify(*Clone, /*ForDifferentiation=*/true);
  return Clone;
}

} // namespace slope
