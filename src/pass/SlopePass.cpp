//===- SlopePass.cpp ------------------------------------------------------===//
#include "SlopePass.h"
#include "AdjointWindows.h"
#include "ByteLayout.h"
#include "CallSite.h"
#include "CustomRules.h"
#include "Diagnostics.h"
#include "DiffError.h"
#include "Differentiator.h"
#include "DisjointCall.h"
#include "EnzymeCall.h"
#include "LibDevice.h"
#include "MarkerCall.h"
#include "PrivateAdjoints.h"
#include "ReverseVectorize.h"
#include "ReverseVerify.h"
#include "Rules.h"
#include "SourceTypes.h"
#include "SplitDerivative.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace slope {
namespace {

bool &dumpDerivatives() {
  static bool Dump = false;
  return Dump;
}

bool &deferUndefinedTargets() {
  static bool Defer = false;
  return Defer;
}

bool isGenerated(const Function &F) {
  return F.getName().contains(".slope.") && !F.isDeclaration();
}

/// Prints the functions this run generated: derivatives, the augmented
/// forward and reverse parts of calls that stay calls, and their helpers.
void dumpGenerated(const Module &M, const StringSet<> &Before) {
  for (const Function &F : M)
    if (isGenerated(F) && !Before.contains(F.getName()))
      errs() << "slope: generated " << F.getName() << " ("
             << sourceName(F.getName()) << ")\n"
             << F << "\n";
}

void storeUnlessNull(IRBuilderBase &B, Value *V, Value *Ptr) {
  if (!isa<ConstantPointerNull>(Ptr))
    B.CreateStore(V, Ptr);
}

/// The primals, then per lane each shadow (or tangent) the marker passed.
SmallVector<Value *, 16> shadowedArguments(const MarkerCall &Marker) {
  return derivativeArguments(
      Marker.Request, Marker.Primals,
      [&](unsigned Lane, unsigned I) { return Marker.shadow(Lane, I); });
}

/// \p Disjoint, when not null, is the derivative for non-overlapping
/// pointer arguments (see DisjointCall.h).
void rewriteReverse(const MarkerCall &Marker, Function &Derivative,
                    Function *Disjoint) {
  IRBuilder<> B(Marker.Call);
  Type *RetTy = Marker.Request.Target->getReturnType();
  unsigned Width = Marker.Request.Width;
  SmallVector<Value *, 16> Args = shadowedArguments(Marker);
  if (RetTy->isFloatingPointTy())
    Args.append(Width, ConstantFP::get(RetTy, 1.0));
  Value *Result =
      Disjoint ? callDisjointOrPlain(B, Marker, *Disjoint, Derivative, Args)
               : callInPlaceOf(B, *Marker.Call, Derivative, Args);
  unsigned Field = 0;
  if (!RetTy->isVoidTy())
    storeUnlessNull(B, B.CreateExtractValue(Result, Field++), Marker.ResultOut);
  for (unsigned Lane = 0; Lane < Width; ++Lane)
    for (auto [I, Activity] : enumerate(Marker.Request.Args))
      if (Activity == ArgActivity::Active)
        storeUnlessNull(B, B.CreateExtractValue(Result, Field++),
                        Marker.shadow(Lane, I));
}

void rewriteForward(const MarkerCall &Marker, Function &Derivative) {
  IRBuilder<> B(Marker.Call);
  Type *RetTy = Marker.Request.Target->getReturnType();
  unsigned Width = Marker.Request.Width;
  Value *Result =
      callInPlaceOf(B, *Marker.Call, Derivative, shadowedArguments(Marker));
  if (RetTy->isFloatingPointTy()) {
    storeUnlessNull(B, B.CreateExtractValue(Result, 0), Marker.ResultOut);
    // Vector mode: the tangents go to an array, lane by lane.
    if (!isa<ConstantPointerNull>(Marker.TangentOut))
      for (unsigned Lane = 0; Lane < Width; ++Lane) {
        Value *To =
            Lane == 0
                ? Marker.TangentOut
                : B.CreateConstInBoundsGEP1_64(RetTy, Marker.TangentOut, Lane);
        B.CreateStore(B.CreateExtractValue(Result, 1 + Lane), To);
      }
  } else if (!RetTy->isVoidTy()) {
    storeUnlessNull(B, Result, Marker.ResultOut);
  }
}

/// Checks what parseMarker cannot: forward tangents have the parameter
/// type; adjoint destinations and dup shadows are pointers.
Error checkShadows(const MarkerCall &Marker) {
  bool Forward = Marker.Request.Mode == DiffMode::Forward;
  for (auto [K, ShadowValue] : enumerate(Marker.Shadows)) {
    unsigned I = K % Marker.Primals.size();
    ArgActivity Activity = Marker.Request.Args[I];
    Type *Shadow = ShadowValue->getType();
    bool Fits = true;
    if (Activity == ArgActivity::Active)
      Fits = Forward ? Shadow == Marker.Primals[I]->getType()
                     : Shadow->isPointerTy();
    else if (Activity == ArgActivity::Dup)
      Fits = Shadow->isPointerTy();
    if (!Fits)
      return make_error<DiffError>("the shadow of argument " +
                                       std::to_string(I + 1) +
                                       " does not fit the argument",
                                   Marker.Call);
  }
  return Error::success();
}

/// The module's custom rules plus the functions the source marks inactive.
CustomRules readRules(Module &M) {
  CustomRules Rules(M);
  for (Function &F : M)
    if (isSourceInactive(F.getName()))
      Rules.markInactive(&F);
  return Rules;
}

constexpr StringLiteral OpaqueSuffix = ".slope.opaque";

/// Runs before the optimizer: calls to functions with custom derivatives or
/// marked inactive must reach the pass as calls, so they go to an opaque
/// declaration that no inlining or interprocedural analysis can see through
/// (a rule for f(x) = x would otherwise be lost to `returned` inference).
/// So do calls to CUDA libdevice math functions (always-inline bodies of
/// bit tricks), whose derivatives come from the libm rules. SlopePass
/// points them back at the functions before differentiating.
/// Marks each memcpy/memmove with the source's element layout (see
/// CopyTypes.h), while it is still in the function it was written in: the
/// metadata travels with the copy through inlining.
bool markSourceCopies(Module &M) {
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *Copy = dyn_cast<MemTransferInst>(&I);
      const DebugLoc &Loc = I.getDebugLoc();
      if (!Copy || !Loc || Loc.getInlinedAt())
        continue;
      if (std::optional<SourceRecordLayout> Layout =
              sourceCopyLayout(F.getName(), Loc.getLine(), Loc.getCol())) {
        markRecordLayout(
            *Copy, ByteLayout::fromFields(M.getContext(), Layout->Size,
                                          Layout->Floats, Layout->Pointers));
        if (Layout->ElementAssignment)
          markElementAssignment(*Copy);
        Changed = true;
      }
    }
  return Changed;
}

struct HideRuleTargets : PassInfoMixin<HideRuleTargets> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    bool MarkedCopies = markSourceCopies(M);
    CustomRules Rules = readRules(M);
    // Enzyme's rule globals may be internal and unused: keep them for
    // SlopePass, which removes them.
    if (!Rules.globals().empty())
      appendToCompilerUsed(
          M, SmallVector<GlobalValue *, 4>(Rules.globals().begin(),
                                           Rules.globals().end()));
    bool Changed = MarkedCopies || !Rules.globals().empty();
    for (Function &F : make_early_inc_range(M)) {
      bool LibDevice = libDeviceRule(F) != nullptr;
      if (!(Rules.isOpaque(&F) || LibDevice) || F.isDeclaration())
        continue;
      if (LibDevice) // internal: kept alive until SlopePass
        appendToCompilerUsed(M, {&F});
      else {
        F.addFnAttr(Attribute::NoInline);
        F.removeFnAttr(Attribute::AlwaysInline);
      }
      Function *Proxy = nullptr;
      for (User *U : make_early_inc_range(F.users())) {
        auto *Call = dyn_cast<CallBase>(U);
        if (!Call || Call->getCalledFunction() != &F)
          continue;
        if (!Proxy)
          Proxy = Function::Create(F.getFunctionType(),
                                   GlobalValue::ExternalLinkage,
                                   F.getName() + OpaqueSuffix, M);
        Call->setCalledFunction(Proxy);
        Changed = true;
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

/// Undoes HideRuleTargets.
void restoreRuleTargets(Module &M) {
  for (Function &Proxy : make_early_inc_range(M)) {
    if (!Proxy.isDeclaration() || !Proxy.getName().ends_with(OpaqueSuffix))
      continue;
    Function *Target =
        M.getFunction(Proxy.getName().drop_back(OpaqueSuffix.size()));
    if (!Target || Target->getFunctionType() != Proxy.getFunctionType())
      continue;
    Proxy.replaceAllUsesWith(Target);
    Proxy.eraseFromParent();
  }
  removeFromUsedLists(M, [](Constant *C) {
    auto *F = dyn_cast<Function>(C);
    return F && libDeviceRule(*F);
  });
}

/// The inliner has run; libdevice functions hidden from it are inlined
/// now where they are always-inline (everywhere, as clang intends).
/// Returns whether anything was.
bool inlineLibDevice(Module &M) {
  bool Inlined = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::AlwaysInline) ||
        !libDeviceRule(F))
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledFunction() == &F)
        Calls.push_back(Call);
    for (CallBase *Call : Calls) {
      InlineFunctionInfo Info;
      Inlined |= InlineFunction(*Call, Info).isSuccess();
    }
  }
  return Inlined;
}

/// The derivative for non-overlapping pointer arguments, when the marker
/// gives their extents and the target reaches memory only through its
/// parameters; null otherwise (the plain derivative serves alone).
Function *disjointDerivative(const MarkerCall &Marker) {
  if (!mayCallDisjoint(Marker))
    return nullptr;
  DiffRequest Req = Marker.Request;
  Req.DisjointPointers = true;
  Expected<Function *> Derivative = getDerivative(Req);
  if (!Derivative) {
    explainNoDisjoint(Marker, toString(Derivative.takeError()));
    return nullptr;
  }
  return *Derivative;
}

/// Handles one marker call; returns false when it failed (and was reported).
/// What became of a request.
enum class Outcome { Served, Failed, Deferred };

/// \p MayDefer: an -flto compile step whose target reaches another file;
/// a derivative that cannot be made here is left to the link.
Outcome processMarker(CallBase &Call, DiffMode Mode, const CustomRules &Rules,
                      bool MayDefer) {
  Expected<MarkerCall> Marker = parseMarker(Call, Mode);
  if (!Marker) {
    auto *Target = dyn_cast<Function>(
        Call.getArgOperand(0)->stripPointerCastsAndAliases());
    reportFailure(Call, Target, Mode, Marker.takeError());
    return Outcome::Failed;
  }
  DiffRequest &Req = Marker->Request;
  Req.Rules = &Rules;
  Req.ResultUnused = Mode == DiffMode::Reverse &&
                     !Req.Target->getReturnType()->isVoidTy() &&
                     isa<ConstantPointerNull>(Marker->ResultOut);
  addSourceElementTypes(Req);
  Error Checked = checkShadows(*Marker);
  Expected<Function *> Derivative =
      Checked ? Expected<Function *>(std::move(Checked))
              : getDerivative(Marker->Request);
  if (!Derivative) {
    if (MayDefer) {
      consumeError(Derivative.takeError());
      return Outcome::Deferred;
    }
    reportFailure(Call, Marker->Request.Target, Mode, Derivative.takeError());
    return Outcome::Failed;
  }
  if (Mode == DiffMode::Reverse)
    rewriteReverse(*Marker, **Derivative, disjointDerivative(*Marker));
  else
    rewriteForward(*Marker, **Derivative);
  return Outcome::Served;
}

/// A call that asks for a derivative: a slope.hpp marker, or an Enzyme
/// entry point.
struct RequestCall {
  CallBase *Call;
  DiffMode Mode;
  std::optional<EnzymeEntry> Enzyme;

  Function *target() const {
    if (Enzyme)
      return enzymeTarget(*Call);
    return dyn_cast<Function>(
        Call->getArgOperand(0)->stripPointerCastsAndAliases());
  }
};
using MarkerList = SmallVector<RequestCall, 8>;

/// Whether \p Target, or a function its derivative may run, holds a marker
/// that is still to be processed: every function its body names (a
/// derivative's target too), and the derivative functions of custom rules
/// (a checkpointed loop's pullback asks for a step's gradient).
bool reachesPendingMarker(Function *Target,
                          const DenseMap<Function *, unsigned> &Pending,
                          const CustomRules &Rules) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work{Target};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!F || !Seen.insert(F).second)
      continue;
    if (Pending.lookup(F))
      return true;
    if (const CustomRule *Rule = Rules.ruleFor(F))
      Work.append({Rule->Forward, Rule->Pullback, Rule->EnzymeForward,
                   Rule->EnzymeAugmented, Rule->EnzymeReverse});
    for (Instruction &I : instructions(*F))
      for (Value *Operand : I.operands())
        if (auto *Named = dyn_cast<Function>(Operand->stripPointerCasts()))
          Work.push_back(Named);
  }
  return false;
}

/// Whether differentiating \p Target may need a function defined in
/// another file: it is a declaration, or names one (through the bodies it
/// reaches) that is no library function, intrinsic, rule target or
/// marker. An -flto compile step leaves such a request to the link when
/// its derivative cannot be made here.
bool needsOtherFiles(Function *Target, const CustomRules &Rules,
                     const TargetLibraryInfo &TLI) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work{Target};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!F || !Seen.insert(F).second || F->isIntrinsic() || Rules.ruleFor(F) ||
        Rules.isInactive(F) || markerMode(*F) || enzymeEntry(*F))
      continue;
    LibFunc Func;
    if (F->isDeclaration()) {
      if (!TLI.getLibFunc(*F, Func))
        return true;
      continue;
    }
    // Every function named, not only those called directly: at -O0 a
    // member function pointer's call goes through a phi until simplified.
    for (Instruction &I : instructions(*F))
      for (Value *Operand : I.operands())
        if (auto *Named = dyn_cast<Function>(Operand->stripPointerCasts()))
          Work.push_back(Named);
  }
  return false;
}

/// Nested differentiation (a target that itself calls grad): inner
/// markers are processed first, so that the outer target calls their
/// derivatives, which Slope differentiates like any code.
MarkerList innermostFirst(const MarkerList &Markers, const CustomRules &Rules) {
  DenseMap<Function *, unsigned> Pending;
  for (const RequestCall &Request : Markers)
    ++Pending[Request.Call->getFunction()];
  MarkerList Left = Markers, Ordered;
  while (!Left.empty()) {
    auto *Next = find_if(Left, [&](const RequestCall &Request) {
      Function *Target = Request.target();
      return !Target || !reachesPendingMarker(Target, Pending, Rules);
    });
    if (Next == Left.end())
      Next = Left.begin(); // a cycle: reported when it is processed
    --Pending[Next->Call->getFunction()];
    Ordered.push_back(*Next);
    Left.erase(Next);
  }
  return Ordered;
}

} // namespace

PreservedAnalyses SlopePass::run(Module &M, ModuleAnalysisManager &) {
  restoreRuleTargets(M);
  MarkerList Markers;
  SmallVector<Function *, 4> Declarations;
  for (Function &F : M) {
    std::optional<DiffMode> Mode = markerMode(F);
    std::optional<EnzymeEntry> Enzyme = enzymeEntry(F);
    if (Enzyme)
      Mode = enzymeMode(*Enzyme);
    if (!Mode)
      continue;
    Declarations.push_back(&F);
    SmallVector<User *, 8> Users(F.users());
    for (User *U : Users)
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledOperand() == &F && !isa<CallBrInst>(Call))
        Markers.push_back({Call, *Mode, Enzyme});
  }
  CustomRules Rules = readRules(M);
  if (Markers.empty() && Rules.globals().empty()) {
    // Calls to libdevice were hidden from the inliner in any case.
    return inlineLibDevice(M) ? PreservedAnalyses::none()
                              : PreservedAnalyses::all();
  }
  StringSet<> GeneratedBefore;
  for (Function &F : M)
    if (isGenerated(F))
      GeneratedBefore.insert(F.getName());
  // What the optimizer inferred from a rule target's body (such as
  // `returned`) must not let simplification bypass its rule.
  for (Function &F : M)
    if (Rules.isOpaque(&F))
      for (Argument &A : F.args())
        A.removeAttr(Attribute::Returned);

  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  for (RequestCall Request : innermostFirst(Markers, Rules)) {
    CallBase *Call = Request.Call;
    Function *Target = Request.target();
    bool MayDefer = deferUndefinedTargets() && !Request.Enzyme && Target &&
                    needsOtherFiles(Target, Rules, TLI);
    Outcome Result =
        Request.Enzyme
            ? (serveEnzymeCall(*Call, *Request.Enzyme, Rules) ? Outcome::Served
                                                              : Outcome::Failed)
            : processMarker(*Call, Request.Mode, Rules, MayDefer);
    if (Result == Outcome::Deferred)
      continue; // for the link (-flto)
    bool Served = Result == Outcome::Served;
    // A failed request has been reported as an error, which fails the
    // compilation; the call goes either way so later passes see valid IR.
    if (!Served) {
      if (auto *Invoke = dyn_cast<InvokeInst>(Call))
        Call = changeToCall(Invoke);
      Call->replaceAllUsesWith(PoisonValue::get(Call->getType()));
    }
    Call->eraseFromParent();
  }
  for (Function *F : Declarations)
    if (F->use_empty())
      F->eraseFromParent();
  removeSeams(M);
  if (std::string Problem = linkMissingLibDevice(M); !Problem.empty())
    M.getContext().emitError("slope: derivatives need libdevice functions: " +
                             Problem);
  inlineLibDevice(M);
  if (dumpDerivatives())
    dumpGenerated(M, GeneratedBefore);
  // The rule tables have served; they do not belong in the object file.
  SmallPtrSet<Constant *, 4> RuleGlobals(Rules.globals().begin(),
                                         Rules.globals().end());
  removeFromUsedLists(M, [&](Constant *C) { return RuleGlobals.count(C); });
  for (GlobalVariable *GV : Rules.globals()) {
    GV->removeDeadConstantUsers();
    if (GV->use_empty())
      GV->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

void setDumpDerivatives(bool Dump) { dumpDerivatives() = Dump; }

void setDeferUndefinedTargets(bool Defer) { deferUndefinedTargets() = Defer; }

void registerSlopePass(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        // slope<verify>: verify mode, as -fplugin-arg-slope-verify.
        if (Name != "slope" && Name != "slope<verify>")
          return false;
        if (Name == "slope<verify>")
          setVerifyReverseSweeps(true);
        MPM.addPass(SlopePass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "slope-private-adjoints") {
          FPM.addPass(PrivateAdjointsPass());
          return true;
        }
        if (Name == "slope-reverse-vectorize") {
          FPM.addPass(ReverseLoopVectorizePass());
          return true;
        }
        if (Name != "slope-adjoint-windows")
          return false;
        FPM.addPass(AdjointWindowsPass());
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(HideRuleTargets());
      });
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SlopePass());
      });
  // On the reverse sweeps SlopePass made, their loops simplified and
  // rotated: before the vectorizer sees them.
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(PrivateAdjointsPass());
        FPM.addPass(AdjointWindowsPass());
        FPM.addPass(ReverseLoopVectorizePass());
      });
  // The link of an -flto build: requests the compile steps left (targets
  // defined in other files), now that the module holds every file.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SlopePass());
      });
}

} // namespace slope
