//===- TapePlanner.cpp - How the reverse sweep gets each primal value -----===//
//
// The tape planner: for every primal value the reverse sweep needs, this is
// the one place that decides how it gets there. Legality and cost are kept
// apart: each way below is legal only under the condition its predicate
// proves, and among the legal ways the cheapest is taken (in this order).
//
//   Induction      start + step·c from the loop's reverse counter c
//   Recompute      cheap arithmetic redone from its operands' values
//   ShiftedLoad    a header phi carrying the previous iteration's load,
//                  loaded again at its address in iteration c
//   LoadAgain      a load no later write may change (LaterWrites.h), or
//                  the shadow twin of such a pointer load
//   LoopInvariant  a value from outside the loop, taped once per loop
//   PreImage       a load whose later writers (bulk writes, stores in
//                  loops) all have pre-images the reverse sweep puts back
//   Tape           everything else: one entry per execution
//
// Values outside every loop (or needed outside every loop) have one
// instance that a stack slot keeps. With -Rpass-analysis=slope each
// decision is a remark at the value; in verify mode (ReverseVerify.h) each
// way but the tape is checked against the tape at run time.
//
//===----------------------------------------------------------------------===//
#include "DiffError.h"
#include "ReverseEmitter.h"
#include "ReverseVerify.h"
#include "Rules.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"

using namespace llvm;

namespace slope {

/// Values the reverse sweep recomputes from their operands instead of
/// taping them: address and integer arithmetic, comparisons, and
/// floating-point arithmetic as cheap as the memory traffic a tape entry
/// costs (add, sub, mul, fma, negation, conversions, selects). Divisions
/// and calls (sqrt, exp, sin, ...) are taped.
bool isCheapToRecompute(const Instruction &I) {
  if (isa<GetElementPtrInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<CastInst>(I) || isa<UnaryOperator>(I))
    return true;
  if (isa<BinaryOperator>(I))
    return !I.isIntDivRem() && I.getOpcode() != Instruction::FDiv &&
           I.getOpcode() != Instruction::FRem;
  if (auto *Intrinsic = dyn_cast<IntrinsicInst>(&I))
    switch (Intrinsic->getIntrinsicID()) {
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::fabs:
    case Intrinsic::smax:
    case Intrinsic::smin:
    case Intrinsic::umax:
    case Intrinsic::umin:
      return true;
    default:
      return false;
    }
  return false;
}

// Legality.

bool ReverseEmitter::isInductionHere(Instruction &I) {
  const Induction *IV = inductionOf(I);
  // The counter holds this loop's iteration only inside its reverse.
  return IV && IV->Loop->Blocks.contains(CurrentPrimal);
}

bool ReverseEmitter::isRepeatableLoad(Instruction &I) {
  auto *Load = dyn_cast<LoadInst>(&I);
  return Load && Unwritten.contains(Load) &&
         availableWithoutTape(Load->getPointerOperand());
}

bool ReverseEmitter::isPreImageLoad(Instruction &I) {
  auto *Load = dyn_cast<LoadInst>(&I);
  // Requested elsewhere, a bulk write could lie between the load and the
  // request.
  if (!Load)
    return false;
  auto Found = PreImageLoads.find(Load);
  return Found != PreImageLoads.end() &&
         (CurrentPrimal == Load->getParent() ||
          (Found->second && Found->second->contains(CurrentPrimal)));
}

bool ReverseEmitter::availableWithoutTape(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !InLoop.contains(I->getParent()) || inductionOf(*I) ||
      invariantLoopExit(*I))
    return true;
  if (Depth == 0)
    return false;
  if (isa<PHINode>(I))
    return isShiftedLoadAvailable(*I, Depth - 1);
  if (auto *Load = dyn_cast<LoadInst>(I))
    return (Unwritten.contains(Load) || isPreImageLoad(*Load)) &&
           availableWithoutTape(Load->getPointerOperand(), Depth - 1);
  return isCheapToRecompute(*I) && all_of(I->operands(), [&](Value *Op) {
           return availableWithoutTape(Op, Depth - 1);
         });
}

// Cost.

void ReverseEmitter::findValuesRulesRead() {
  LLVMContext &Ctx = Derivative->getContext();
  Function *Scratch =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                       GlobalValue::InternalLinkage, "slope.rule.reads",
                       Derivative->getParent());
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Scratch));
  auto WithoutTape = [&](Value *V) { return availableWithoutTape(V); };
  // In block order: the scratch code (and the declarations it adds) comes
  // out the same on every compilation.
  for (BasicBlock &Block : *Derivative) {
    if (!InLoop.contains(&Block))
      continue;
    BasicBlock *BB = &Block;
    // (Some ways to get a value hold only inside its block's reverse.)
    CurrentPrimal = BB;
    for (Instruction &I : *BB) {
      // The instructions whose reverse emitAdjoint takes from a rule.
      const DerivativeRule *Rule =
          Activity->isActive(&I) ? ruleReversing(I) : nullptr;
      if (!Rule)
        continue;
      SmallVector<bool, 4> Wanted;
      for (Use *U : differentiableOperands(I))
        Wanted.push_back(Activity->isActive(U->get()));
      auto Record = [&](Value *V) {
        if (isa<Instruction>(V))
          (V == &I ? ReadByOwnRule : ReadByRules).insert({BB, V});
        return V;
      };
      RuleOperands Ops(B, I, Record, /*WholeBlockAvailable=*/true);
      Ops.WithoutTape = WithoutTape;
      SmallVector<Value *, 4> Contributions;
      applyReverse(*Rule, Ops, PoisonValue::get(I.getType()), Wanted,
                   Contributions);
    }
  }
  CurrentPrimal = nullptr;
  Scratch->dropAllReferences();
  Scratch->eraseFromParent();
}

bool ReverseEmitter::costsNoNewEntry(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || availableWithoutTape(I) ||
      ReadByRules.contains({CurrentPrimal, I}) ||
      ReadByOwnRule.contains({CurrentPrimal, I}))
    return true;
  return Depth > 0 && isCheapToRecompute(*I) &&
         all_of(I->operands(),
                [&](Value *Op) { return costsNoNewEntry(Op, Depth - 1); });
}

bool ReverseEmitter::freeForRuleOf(Instruction &I, Value *V) {
  if (V != &I)
    return costsNoNewEntry(V);
  return availableWithoutTape(V) || ReadByRules.contains({CurrentPrimal, V});
}

bool ReverseEmitter::recomputingSavesTape(Instruction &I) {
  if (!I.getType()->isFPOrFPVectorTy())
    return true;
  // Cheap operands count as free whatever their own operands need, and
  // so do operands this block's reverse reads anyway for a partial (the
  // corners of a cell feed both a product's partials and a difference).
  SmallPtrSet<Value *, 4> Taped;
  for (Value *Op : I.operands()) {
    auto *OpI = dyn_cast<Instruction>(Op);
    if (OpI && !availableWithoutTape(OpI, /*Depth=*/0) &&
        !isCheapToRecompute(*OpI) && !isRepeatableLoad(*OpI) &&
        !isPreImageLoad(*OpI) && !ReadByRules.contains({CurrentPrimal, OpI}) &&
        !ReadByOwnRule.contains({CurrentPrimal, OpI}))
      Taped.insert(OpI);
  }
  return Taped.size() <= 1;
}

ReverseEmitter::PrimalSource ReverseEmitter::planInLoop(Instruction &I) {
  if (isInductionHere(I))
    return PrimalSource::Induction;
  if (isCheapToRecompute(I) && recomputingSavesTape(I))
    return PrimalSource::Recompute;
  if (isShiftedLoadAvailable(I, 6))
    return PrimalSource::ShiftedLoad;
  // A load nothing later changes costs no tape at all, not even once per
  // loop (a vector's data pointer loaded before an inner loop).
  if (isRepeatableLoad(I))
    return PrimalSource::LoadAgain;
  if (invariantLoopExit(I))
    return PrimalSource::LoopInvariant;
  if (isPreImageLoad(I))
    return PrimalSource::PreImage;
  return PrimalSource::Tape;
}

// The decisions carried out.

static StringRef describeSource(ReverseEmitter::PrimalSource Source) {
  using S = ReverseEmitter::PrimalSource;
  switch (Source) {
  case S::Induction:
    return "recomputed from the loop's iteration counter";
  case S::Recompute:
    return "recomputed from its operands";
  case S::ShiftedLoad:
    return "loaded again at the address the previous iteration loaded (no "
           "later write may change that memory)";
  case S::LoopInvariant:
    return "taped once per execution of the loop around it";
  case S::LoadAgain:
    return "loaded again (no later write may change that memory)";
  case S::PreImage:
    return "loaded again after the pre-images of the writes that overwrite "
           "it are put back";
  case S::Tape:
    return "taped";
  }
  return "";
}

void ReverseEmitter::explainPlan(Instruction &I, PrimalSource Source) {
  // The tape explains its own entries.
  if (Source == PrimalSource::Tape || !Explained.insert({&I, Source}).second ||
      !Derivative->getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled(
          "slope"))
    return;
  // Counters, addresses and integer arithmetic are always recomputed:
  // only data is worth a remark.
  if ((Source == PrimalSource::Induction ||
       Source == PrimalSource::Recompute) &&
      !I.getType()->isFPOrFPVectorTy())
    return;
  explainControl(I, (Twine("this value is ") + describeSource(Source)).str());
}

void ReverseEmitter::explainControl(Instruction &At, StringRef What) {
  if (!Derivative->getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled(
          "slope") ||
      !ExplainedControl.insert({&At, What.str()}).second)
    return;
  OptimizationRemarkEmitter ORE(Derivative);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis("slope", "Planned", &At)
           << "in the reverse sweep of '" << sourceName(Derivative->getName())
           << "' " << What;
  });
}

Value *ReverseEmitter::recompute(Instruction &I, IRBuilderBase &B) {
  Instruction *Copy = I.clone();
  for (Use &Op : Copy->operands())
    Op.set(primalValue(Op.get(), B));
  B.Insert(Copy, I.getName() + ".redo");
  return Copy;
}

Value *ReverseEmitter::valueInLoop(Instruction &I, PrimalSource Source,
                                   IRBuilderBase &B) {
  switch (Source) {
  case PrimalSource::Induction:
    return inductionValue(I, B);
  case PrimalSource::Recompute:
    return recompute(I, B);
  case PrimalSource::ShiftedLoad:
    return shiftedLoadValue(I, B);
  case PrimalSource::LoopInvariant:
    return loopInvariantValue(I, B);
  case PrimalSource::LoadAgain:
    return recompute(I, B);
  case PrimalSource::PreImage:
    return preImageValue(I, B);
  case PrimalSource::Tape:
    break;
  }
  // The frame is read at the top of the primal block's reverse.
  return TheTape->read(*CurrentPrimal, *ReverseOf[CurrentPrimal], &I);
}

Value *ReverseEmitter::checkedAgainstTape(Value *Cheap, Instruction &I,
                                          StringRef How, IRBuilderBase &B) {
  if (Verifying && TheTape)
    emitVerifyCheck(
        B, Cheap, TheTape->read(*CurrentPrimal, *ReverseOf[CurrentPrimal], &I),
        I, How);
  return Cheap;
}

Value *ReverseEmitter::primalValue(Value *V, IRBuilderBase &B) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getParent() == &Derivative->getEntryBlock())
    return V;
  if (Value *Known = Reloaded.lookup({V, B.GetInsertBlock()}))
    return Known;
  Value *Result;
  // Needed by a block outside every loop, a value has one instance there:
  // the last one, which a slot keeps as well as the tape would.
  if (InLoop.contains(I->getParent()) && InLoop.contains(CurrentPrimal)) {
    PrimalSource Source = planInLoop(*I);
    explainPlan(*I, Source);
    Result = valueInLoop(*I, Source, B);
    if (Source != PrimalSource::Tape && Source != PrimalSource::LoopInvariant)
      Result = checkedAgainstTape(Result, *I, describeSource(Source), B);
  } else {
    // Computed at most once per call, or needed only in its last instance:
    // a stack slot holds it.
    AllocaInst *&Slot = CacheSlots[V];
    if (!Slot) {
      Slot = entrySlot(V->getType(), V->getName() + ".cache", nullptr);
      IRBuilder<> Store(I->getParent(),
                        isa<PHINode>(I) ? I->getParent()->getFirstInsertionPt()
                                        : std::next(I->getIterator()));
      Store.CreateStore(V, Slot);
    }
    Result = B.CreateLoad(V->getType(), Slot, V->getName() + ".reload");
  }
  // recompute() may have filled the map: look the entry up again.
  Reloaded[{V, B.GetInsertBlock()}] = Result;
  return Result;
}

} // namespace slope
