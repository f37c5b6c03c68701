//===- SeedFactoring.cpp --------------------------------------------------===//
#include "SeedFactoring.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace slope {

namespace {

/// Past this many multiplies added per iteration, factoring may cost more
/// than the latency it saves.
constexpr unsigned MaxFactoredExits = 8;

bool isZero(const Value *V) {
  auto *C = dyn_cast<ConstantFP>(V);
  return C && C->isZero();
}

/// One adjoint carried by a loop's header phi (the seed) and the values
/// each iteration computes linearly from it.
class CarriedAdjoint {
public:
  CarriedAdjoint(PHINode &Seed, Loop &L, LoopInfo &LI)
      : Seed(Seed), L(L), LI(LI) {}

  /// Whether the seed's next value is linear in it through a chain of at
  /// least two operations (what factoring shortens) and every value that
  /// leaves the linear part is one that factoring may scale.
  bool worthFactoring();
  void factor();
  /// An instruction of the loop with a source location (a primal value
  /// the reverse sweep recomputes) if one has one.
  Instruction &located() const {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        if (I.getDebugLoc())
          return I;
    return *L.getHeader()->getFirstNonPHI();
  }

private:
  bool linear(const Value *V) const { return V == &Seed || Linear.contains(V); }
  bool linearOrZero(const Value *V) const { return linear(V) || isZero(V); }
  /// Whether \p I is linear in the seed given its operands: scaling every
  /// linear operand by one factor scales \p I by the same.
  bool isLinear(const Instruction &I) const;
  unsigned depth(const Value *V) const {
    auto It = Depth.find(V);
    return It == Depth.end() ? 0 : It->second;
  }

  PHINode &Seed;
  Loop &L;
  LoopInfo &LI;
  /// In the order of evaluation within one iteration.
  SmallVector<Instruction *, 32> Order;
  SmallPtrSet<const Value *, 32> Linear;
  DenseMap<const Value *, unsigned> Depth;
  /// Linear values used by something that is not.
  SmallVector<Instruction *, 8> Exits;
};

/// Whether \p I takes no time once simplified: a merge, or an operation
/// with its identity (x + 0, x · 1, as accumulation into a fresh adjoint
/// and the unit seed leave them).
static bool passesThrough(const Instruction &I) {
  if (isa<PHINode>(I) || isa<SelectInst>(I))
    return true;
  auto Is = [&](unsigned Op, double Value) {
    auto *C = dyn_cast<ConstantFP>(I.getOperand(Op));
    return C && (Value == 0 ? C->isZero() : C->isExactlyValue(Value));
  };
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    return Is(0, 0) || Is(1, 0);
  case Instruction::FSub:
    return Is(1, 0);
  case Instruction::FMul:
    return Is(0, 1) || Is(1, 1);
  default:
    return false;
  }
}

bool CarriedAdjoint::isLinear(const Instruction &I) const {
  auto Scaled = [&](unsigned Op) { return linear(I.getOperand(Op)); };
  switch (I.getOpcode()) {
  case Instruction::FMul:
    return Scaled(0) != Scaled(1);
  case Instruction::FDiv:
    return Scaled(0) && !Scaled(1);
  case Instruction::FAdd:
  case Instruction::FSub:
    return (Scaled(0) || Scaled(1)) && linearOrZero(I.getOperand(0)) &&
           linearOrZero(I.getOperand(1));
  case Instruction::FNeg:
    return Scaled(0);
  case Instruction::Select:
    return !Scaled(0) && (Scaled(1) || Scaled(2)) &&
           linearOrZero(I.getOperand(1)) && linearOrZero(I.getOperand(2));
  case Instruction::PHI:
    return any_of(I.operands(), [&](const Use &U) { return linear(U); }) &&
           all_of(I.operands(), [&](const Use &U) { return linearOrZero(U); });
  default:
    return false;
  }
}

bool CarriedAdjoint::worthFactoring() {
  // One iteration's values in evaluation order: the loop's own blocks
  // (not its inner loops') in reverse post-order from the header. Within
  // an iteration they form no cycle: the only edges back go to the header.
  BasicBlock *Header = L.getHeader();
  LoopBlocksRPO RPO(&L);
  RPO.perform(&LI);
  for (BasicBlock *BB : RPO) {
    if (LI.getLoopFor(BB) != &L)
      continue;
    for (Instruction &I : *BB) {
      if (BB == Header && isa<PHINode>(I))
        continue;
      if (!I.getType()->isFloatingPointTy() || !isLinear(I))
        continue;
      Linear.insert(&I);
      Order.push_back(&I);
      unsigned Deepest = 0;
      for (const Use &U : I.operands())
        Deepest = std::max(Deepest, depth(U));
      Depth[&I] = Deepest + (passesThrough(I) ? 0 : 1);
    }
  }
  // The seed's next value: linear, at least two operations from it.
  bool Shortens = false;
  for (BasicBlock *Latch : predecessors(Header))
    if (L.contains(Latch)) {
      Value *Next = Seed.getIncomingValueForBlock(Latch);
      if (!linear(Next) || Next == &Seed)
        return false;
      Shortens |= depth(Next) >= 2;
    }
  if (!Shortens)
    return false;
  for (Instruction *I : Order) {
    bool Leaves = false;
    for (User *U : I->users()) {
      if (Linear.contains(U))
        continue;
      // An adjoint is only added, multiplied, stored or passed on; a
      // comparison, a conversion or a classification of one would see
      // the rounding change.
      auto *Call = dyn_cast<CallBase>(U);
      if (isa<CmpInst>(U) || isa<CastInst>(U) ||
          (Call && !Call->getType()->isVoidTy() &&
           !Call->getType()->isFPOrFPVectorTy()))
        return false;
      Leaves = true;
    }
    if (Leaves)
      Exits.push_back(I);
  }
  return Exits.size() <= MaxFactoredExits;
}

void CarriedAdjoint::factor() {
  // Each linear value becomes its value for a seed of 1 ...
  Constant *One = ConstantFP::get(Seed.getType(), 1.0);
  for (Instruction *I : Order)
    for (Use &U : I->operands())
      if (U.get() == &Seed)
        U.set(One);
  // ... and what leaves the linear part is multiplied by the seed once.
  for (Instruction *I : Exits) {
    IRBuilder<> B(I->getParent(), isa<PHINode>(I)
                                      ? I->getParent()->getFirstInsertionPt()
                                      : std::next(I->getIterator()));
    Value *Scaled = B.CreateFMul(&Seed, I, I->getName() + ".scaled");
    I->replaceUsesWithIf(Scaled, [&](Use &U) {
      return U.getUser() != Scaled && !Linear.contains(U.getUser());
    });
  }
}

/// Replaces the promoted phis that only pass one constant around (an
/// adjoint slot reset after each use: -0.0 from every side, through phis
/// of phis) by that constant, so that they read as zero below.
void foldConstantPhiWebs(Function &F, const SmallPtrSetImpl<PHINode *> &Old) {
  SmallVector<PHINode *, 32> Phis;
  for (BasicBlock &BB : F)
    for (PHINode &Phi : BB.phis())
      if (!Old.contains(&Phi))
        Phis.push_back(&Phi);
  SmallPtrSet<PHINode *, 32> Folded;
  for (PHINode *Start : Phis) {
    if (Folded.contains(Start))
      continue;
    SmallVector<PHINode *, 8> Web{Start}, Worklist{Start};
    SmallPtrSet<PHINode *, 8> Seen{Start};
    Constant *Only = nullptr;
    bool Constant = true;
    while (Constant && !Worklist.empty()) {
      for (Value *In : Worklist.pop_back_val()->incoming_values()) {
        if (auto *Phi = dyn_cast<PHINode>(In)) {
          if (Seen.insert(Phi).second) {
            Web.push_back(Phi);
            Worklist.push_back(Phi);
          }
          continue;
        }
        auto *C = dyn_cast<llvm::Constant>(In);
        Constant = C && (!Only || Only == C);
        if (!Constant)
          break;
        Only = C;
      }
    }
    if (!Constant || !Only)
      continue;
    for (PHINode *Phi : Web) {
      Phi->replaceAllUsesWith(Only);
      Folded.insert(Phi);
    }
  }
  for (PHINode *Phi : Folded)
    Phi->eraseFromParent();
}

} // namespace

void factorCarriedAdjoints(Function &F, ArrayRef<AllocaInst *> AdjointSlots,
                           const SmallPtrSetImpl<BasicBlock *> &PrimalBlocks,
                           function_ref<void(Instruction &)> Factored) {
  SmallVector<AllocaInst *, 32> Promotable;
  for (AllocaInst *Slot : AdjointSlots)
    if (isAllocaPromotable(Slot))
      Promotable.push_back(Slot);
  if (Promotable.empty())
    return;
  // The phis promotion creates are the adjoints' (the primal's and the
  // reverse sweep's other phis exist already).
  SmallPtrSet<PHINode *, 32> Before;
  for (BasicBlock &BB : F)
    for (PHINode &Phi : BB.phis())
      Before.insert(&Phi);
  DominatorTree DT(F);
  PromoteMemToReg(Promotable, DT);

  foldConstantPhiWebs(F, Before);
  LoopInfo LI(DT);
  for (Loop *L : LI.getLoopsInPreorder()) {
    // Only adjoints change: the primal sweep computes what the primal does.
    if (any_of(L->blocks(),
               [&](BasicBlock *BB) { return PrimalBlocks.contains(BB); }))
      continue;
    SmallVector<PHINode *, 4> Seeds;
    for (PHINode &Phi : L->getHeader()->phis())
      if (!Before.contains(&Phi) && Phi.getType()->isFloatingPointTy())
        Seeds.push_back(&Phi);
    for (PHINode *Seed : Seeds) {
      CarriedAdjoint Adjoint(*Seed, *L, LI);
      if (!Adjoint.worthFactoring())
        continue;
      Adjoint.factor();
      Factored(Adjoint.located());
    }
  }
}

} // namespace slope
