//===- CheckpointedLoops.cpp ----------------------------------------------===//
#include "CheckpointedLoops.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace slope {

bool isCheckpointedLoop(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  // checkpointed_loop<Step, State>(State *, int steps, int snapshots)
  return Callee &&
         Callee->getName().starts_with("_ZN5slope6detail17checkpointed_loop") &&
         Call.arg_size() == 3;
}

/// The least R with C(K + R, K) >= N.
static int64_t repeatsFor(int64_t N, int64_t K) {
  int64_t R = 0;
  auto Reach = [&](int64_t T) {
    double C = 1;
    for (int64_t I = 1; I <= K; ++I)
      C = C * double(T + I) / double(I);
    return C;
  };
  while (Reach(R) < double(N))
    ++R;
  return R;
}

std::string checkpointedLoopCost(const CallBase &Call) {
  std::string Text =
      "does not tape the steps of this time loop (slope::checkpointed): "
      "binomial checkpointing keeps copies of the state and re-runs steps "
      "from them, ";
  auto *Steps = dyn_cast<ConstantInt>(Call.getArgOperand(1));
  auto *Kept = dyn_cast<ConstantInt>(Call.getArgOperand(2));
  if (!Steps || !Kept || Steps->getSExtValue() <= 0 ||
      Steps->getSExtValue() > (1 << 30) || Kept->getSExtValue() > 64)
    return Text + "at most k + 2 states at once (k = slope::snapshots, by "
                  "default the bit width of the step count) and one step's "
                  "tape; after the primal sweep each step runs at most r + 1 "
                  "more times (re-runs, then once differentiated) for the "
                  "least r with C(k + r, k) >= steps";
  int64_t N = Steps->getSExtValue(), K = Kept->getSExtValue();
  if (K <= 0)
    K = Log2_64(N) + 1; // the header's default: the bit width of N
  return Text + "for " + std::to_string(N) + " steps at most " +
         std::to_string(K + 2) +
         " states at once and one step's tape; each step runs at most " +
         std::to_string(repeatsFor(N, K) + 1) +
         " more times after the primal sweep";
}

/// A mutable global that \p I writes, if it writes one.
static const GlobalVariable *writtenGlobal(const Instruction &I) {
  const Value *Address = nullptr;
  if (auto *Store = dyn_cast<StoreInst>(&I))
    Address = Store->getPointerOperand();
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Address = RMW->getPointerOperand();
  else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I))
    Address = CmpXchg->getPointerOperand();
  else if (auto *Mem = dyn_cast<AnyMemIntrinsic>(&I))
    Address = Mem->getRawDest();
  if (!Address)
    return nullptr;
  auto *Global = dyn_cast<GlobalVariable>(getUnderlyingObject(Address));
  return Global && !Global->isConstant() ? Global : nullptr;
}

std::optional<std::string> notReExecutable(const CallBase &Call) {
  SmallVector<const Function *, 8> Work = {Call.getCalledFunction()};
  SmallPtrSet<const Function *, 8> Seen = {Call.getCalledFunction()};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F)) {
      if (const GlobalVariable *Global = writtenGlobal(I))
        return "the steps of this checkpointed loop write the global '" +
               demangle(Global->getName()) +
               "': re-run from a snapshot of the state, a step would see "
               "it as later steps left it, and the gradient would be "
               "wrong. Keep what the step updates in its state";
      if (auto *Inner = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Inner->getCalledFunction();
            Callee && !Callee->isDeclaration() && Seen.insert(Callee).second)
          Work.push_back(Callee);
    }
  }
  return std::nullopt;
}

} // namespace slope
