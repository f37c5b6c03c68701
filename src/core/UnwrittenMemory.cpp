//===- UnwrittenMemory.cpp ------------------------------------------------===//
#include "UnwrittenMemory.h"
#include "Rules.h"
#include "Target.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace slope {

/// Alias queries cost loads × writers; past this the function keeps its
/// tape (compile time stays bounded on huge functions).
static constexpr unsigned MaxQueries = 200000;

/// Writes memory the program can see: not a call of a math function with a
/// derivative rule (those set errno at most).
static bool writesVisibleMemory(const Instruction &I) {
  if (!I.mayWriteToMemory())
    return false;
  return !(isa<CallBase>(I) && findRule(I));
}

/// Scoped noalias metadata (from inlined restrict parameters) holds within
/// one execution of the scope: a scope declared inside a loop is a new one
/// in every iteration, and says nothing across them.
static bool scopesHoldAcrossIterations(Function &F, LoopInfo &LI) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Decl = dyn_cast<IntrinsicInst>(&I);
          Decl &&
          Decl->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl &&
          LI.getLoopFor(&BB))
        return false;
  return true;
}

LoadWriters findLoadWriters(Function &F, const TargetLibraryInfo &TLI) {
  LoadWriters Result;
  if (targetFacts(*F.getParent()).OtherThreadsWrite)
    return Result;

  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<LoadInst *, 32> Candidates;
  SmallVector<Instruction *, 32> Writers;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        Candidates.push_back(Load);
      else if (writesVisibleMemory(I))
        Writers.push_back(&I);
    }
  if (Candidates.empty() ||
      uint64_t(Candidates.size()) * Writers.size() > MaxQueries)
    return Result;

  AssumptionCache AC(F);
  BasicAAResult Basic(F.getDataLayout(), F, TLI, AC, &DT);
  TypeBasedAAResult TypeBased;
  ScopedNoAliasAAResult ScopedNoAlias;
  AAResults AA(TLI);
  AA.addAAResult(Basic);
  AA.addAAResult(TypeBased);
  if (scopesHoldAcrossIterations(F, LI))
    AA.addAAResult(ScopedNoAlias);
  BatchAAResults Batch(AA);
  // The load and the write may be in different iterations of a loop around
  // both (or the write after the loop, in terms of the last iteration's
  // values): never compare addresses as if one iteration computed both.
  Batch.enableCrossIterationMode();
  for (LoadInst *Load : Candidates) {
    MemoryLocation Where = MemoryLocation::get(Load);
    Instruction *Writer = nullptr;
    bool Several = false;
    for (Instruction *W : Writers) {
      if (!isModSet(Batch.getModRefInfo(W, Where)) ||
          !isPotentiallyReachable(Load, W, nullptr, &DT, &LI))
        continue;
      Several = Writer != nullptr;
      Writer = W;
      if (Several)
        break;
    }
    if (!Writer)
      Result.Unwritten.insert(Load);
    else if (auto *Bulk = dyn_cast<MemIntrinsic>(Writer);
             !Several && Bulk && !Bulk->isVolatile())
      Result.OnlyBulkWriter[Load] = Bulk;
  }
  return Result;
}

} // namespace slope
