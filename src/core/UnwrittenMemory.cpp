//===- UnwrittenMemory.cpp ------------------------------------------------===//
#include "UnwrittenMemory.h"
#include "Rules.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
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

LoadWriters findLoadWriters(Function &F, const TargetLibraryInfo &TLI) {
  LoadWriters Result;
  Triple T(F.getParent()->getTargetTriple());
  if (T.isNVPTX() || T.isAMDGPU())
    return Result;

  DominatorTree DT(F);
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
  AA.addAAResult(ScopedNoAlias);
  BatchAAResults Batch(AA);
  for (LoadInst *Load : Candidates) {
    MemoryLocation Where = MemoryLocation::get(Load);
    Instruction *Writer = nullptr;
    bool Several = false;
    for (Instruction *W : Writers)
      if (isModSet(Batch.getModRefInfo(W, Where))) {
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
