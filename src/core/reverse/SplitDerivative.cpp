//===- SplitDerivative.cpp ------------------------------------------------===//
#include "SplitDerivative.h"
#include "CloneInto.h"
#include "Differentiator.h"
#include "Emitters.h"
#include "Preprocess.h"
#include "SeamCut.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

struct PendingSplit {
  std::string Combined;
  SplitDerivative Parts;
};

/// Combined derivatives being generated, and the splits waiting for them.
thread_local StringSet<> InProgress;
thread_local SmallVector<PendingSplit, 4> Pending;

void discardParts(const SplitDerivative &Parts) {
  discardGenerated(*Parts.Augmented);
  discardGenerated(*Parts.Reverse);
}

SplitDerivative declareParts(const DiffRequest &Req) {
  Module &M = *Req.Target->getParent();
  auto [AugmentedType, ReverseType] = splitPartTypes(Req);
  // External until they have bodies: an internal declaration is invalid.
  return {Function::Create(AugmentedType, GlobalValue::ExternalLinkage,
                           splitPartName(Req, "augmented"), M),
          Function::Create(ReverseType, GlobalValue::ExternalLinkage,
                           splitPartName(Req, "reverse_part"), M)};
}

} // namespace

bool isHandedOverRecord(const Argument &Param) {
  return Param.getParent()
      ->getAttributes()
      .getParamAttr(Param.getArgNo(), HandedOverRecord)
      .isValid();
}

std::string splitPartName(const DiffRequest &Req, StringRef Part) {
  std::string Name =
      (Req.Target->getName() + ".slope." + Part + "." + Req.activityString())
          .str();
  if (Req.Width > 1)
    Name += ".w" + std::to_string(Req.Width);
  return Name + Req.elementTypeSuffix();
}

std::pair<FunctionType *, FunctionType *>
splitPartTypes(const DiffRequest &Req) {
  FunctionType *Combined = reverseDerivativeType(Req);
  Type *Ptr = PointerType::getUnqual(Req.Target->getContext());
  SmallVector<Type *, 8> Params(Combined->params());
  if (Req.Target->getReturnType()->isFloatingPointTy())
    Params.pop_back_n(Req.Width); // the seeds, one per lane
  Params.push_back(Ptr);
  auto *AugmentedType =
      FunctionType::get(Req.Target->getReturnType(), Params, false);
  Params.assign(Combined->param_begin(), Combined->param_end());
  Params.push_back(Ptr);
  return {AugmentedType,
          FunctionType::get(Combined->getReturnType(), Params, false)};
}

Expected<SplitDerivative> getSplitDerivative(const DiffRequest &Req) {
  Module &M = *Req.Target->getParent();
  if (Function *Augmented = M.getFunction(splitPartName(Req, "augmented")))
    return SplitDerivative{Augmented,
                           M.getFunction(splitPartName(Req, "reverse_part"))};
  SplitDerivative Parts = declareParts(Req);
  DiffRequest CombinedReq = Req;
  CombinedReq.Split = true;
  std::string Name = CombinedReq.derivativeName();
  if (InProgress.contains(Name)) {
    Pending.push_back({Name, Parts});
    return Parts;
  }
  bool Existed = M.getFunction(Name) != nullptr;
  Expected<Function *> Combined = getDerivative(CombinedReq);
  Error E = Combined ? cutAtSeams(**Combined, *Parts.Augmented, *Parts.Reverse)
                     : Combined.takeError();
  if (Combined && !Existed && (*Combined)->use_empty())
    (*Combined)->eraseFromParent();
  if (E) {
    discardParts(Parts);
    return std::move(E);
  }
  return Parts;
}

void insertSeam(IRBuilderBase &B, unsigned Index, Value *Result) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Marker = M.getOrInsertFunction(
      (SeamPrefix + Twine(Index)).str(),
      FunctionType::get(B.getVoidTy(), {}, /*isVarArg=*/true));
  SmallVector<Value *, 1> Args;
  if (Result)
    Args.push_back(Result);
  B.CreateCall(Marker, Args);
}

/// Seed copies are calls of `slope.seed.<type>`.
constexpr StringLiteral SeedPrefix = "slope.seed.";

Value *seedAfterSeam(IRBuilderBase &B, Value *Seed) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ty = Seed->getType();
  std::string Name = SeedPrefix.str();
  raw_string_ostream(Name) << *Ty;
  FunctionCallee Copy =
      M.getOrInsertFunction(Name, FunctionType::get(Ty, {Ty}, false));
  return B.CreateCall(Copy, {Seed}, Seed->getName() + ".after.seam");
}

namespace {
void replaceBySeed(CallInst &Copy) {
  Copy.replaceAllUsesWith(Copy.getArgOperand(0));
  Copy.eraseFromParent();
}
} // namespace

void exposeSeeds(Function &F) {
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && Call->getCalledFunction() &&
        Call->getCalledFunction()->getName().starts_with(SeedPrefix))
      replaceBySeed(*Call);
}

void beginDerivative(StringRef Name) { InProgress.insert(Name); }

Error endDerivative(StringRef Name, Function *Derivative) {
  InProgress.erase(Name);
  Error Result = Error::success();
  SmallVector<PendingSplit, 4> Waiting;
  for (PendingSplit &Split : Pending)
    if (Split.Combined == Name)
      Waiting.push_back(Split);
  erase_if(Pending, [&](const PendingSplit &P) { return P.Combined == Name; });
  for (PendingSplit &Split : Waiting) {
    Error E = Derivative ? cutAtSeams(*Derivative, *Split.Parts.Augmented,
                                      *Split.Parts.Reverse)
                         : Error::success();
    if (!Derivative || E)
      discardParts(Split.Parts);
    Result = joinErrors(std::move(Result), std::move(E));
  }
  return Result;
}

void removeSeams(Module &M) {
  for (Function &F : make_early_inc_range(M))
    if (F.getName().starts_with(SeedPrefix)) {
      for (User *U : make_early_inc_range(F.users()))
        replaceBySeed(*cast<CallInst>(U));
      F.eraseFromParent();
    }
  // A seam keeps the primal result alive; without it, what only the
  // result needed (a gradient that does not return it) is dead.
  SetVector<Function *> Cut;
  for (Function &F : make_early_inc_range(M))
    if (F.getName().starts_with(SeamPrefix)) {
      for (User *U : make_early_inc_range(F.users())) {
        Cut.insert(cast<Instruction>(U)->getFunction());
        cast<Instruction>(U)->eraseFromParent();
      }
      F.eraseFromParent();
    }
  for (Function *F : Cut)
    removeDeadCode(*F);
}

} // namespace slope
