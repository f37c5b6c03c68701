//===- LoopAccumulators.cpp - Adjoints of loop-invariant loads ------------===//
//
// A load in a loop from an address outside it (a simulation's time step
// read by every node update) gets an adjoint contribution in every
// iteration of the loop's reverse. Added into shadow memory each time, the
// contributions form a chain of loads and stores through one address -- a
// latency-bound dependence that also keeps the shadows' other pointers from
// being hoisted. When no write in the loop can change that memory (the
// load is one LaterWrites proves unwritten), nothing in the loop's reverse
// reads or resets its shadow except to add to it: the contributions are
// summed in a register instead and added to shadow memory once, where the
// reverse sweep leaves the loop. Additions commute, so where the sum lands
// among the other contributions changes no result beyond rounding.
//
//===----------------------------------------------------------------------===//
#include "DiffError.h"
#include "ReverseEmitter.h"
#include "Target.h"

using namespace llvm;

namespace slope {

ReverseEmitter::LoopAccumulator *
ReverseEmitter::loopAccumulatorFor(LoadInst &Load) {
  auto Known = Accumulators.find({&Load, Lane});
  if (Known != Accumulators.end())
    return &Known->second;
  // The innermost loop reversed by a counter around the load.
  LoopState *Around = nullptr;
  for (const auto &L : Loops)
    if (L->Blocks.contains(Load.getParent()) &&
        (!Around || L->Blocks.size() < Around->Blocks.size()))
      Around = L.get();
  auto *Address = dyn_cast<Instruction>(Load.getPointerOperand());
  if (!Around || !Load.isSimple() || !Unwritten.contains(&Load) || !Load.getType()->isFPOrFPVectorTy() ||
      otherThreadsWrite(*Derivative) ||
      (Address && Around->Blocks.contains(Address->getParent())))
    return nullptr;
  LoopAccumulator &New = Accumulators[{&Load, Lane}];
  New.Loop = Around;
  New.Sum = entrySlot(Load.getType(), Load.getName() + ".adjoint.sum",
                      ConstantFP::getNegativeZero(Load.getType()));
  // Where the sum goes: the shadow address as the loop's reverse last saw
  // it (null while it has not run: nothing to add then).
  auto *Pointer = PointerType::getUnqual(Load.getContext());
  New.Shadow = entrySlot(Pointer, Load.getName() + ".adjoint.at",
                         ConstantPointerNull::get(Pointer));
  AccumulatorOrder.push_back({&Load, Lane});
  explainControl(Load, "the adjoint of this value is summed across the loop "
                       "and added to memory once, where the loop's reverse "
                       "ends");
  return &New;
}

bool ReverseEmitter::accumulateInLoop(LoadInst &Load, Value *Adjoint,
                                      IRBuilderBase &B) {
  LoopAccumulator *Acc = loopAccumulatorFor(Load);
  if (!Acc)
    return false;
  Value *Sum = B.CreateLoad(Load.getType(), Acc->Sum);
  B.CreateStore(B.CreateFAdd(Sum, Adjoint), Acc->Sum);
  B.CreateStore(shadowAt(Load.getPointerOperand(), B), Acc->Shadow);
  return true;
}

Error ReverseEmitter::flushLoopAccumulators() {
  LLVMContext &Ctx = Derivative->getContext();
  for (auto Key : AccumulatorOrder) {
    LoopAccumulator &Acc = Accumulators.find(Key)->second;
    LoadInst &Load = *Key.first;
    // (Every loop reversed by a counter has its header's reverse, which
    // leaves it.)
    BasicBlock *Leave = Acc.Loop->ReverseLeave;
    if (!Leave)
      return unsupported(Load, "internal: a loop's reverse has no exit");
    // Split off the rest of the leaving block: add the sum, if the loop's
    // reverse stored an address, then go on.
    BasicBlock *Rest =
        Leave->splitBasicBlock(Leave->getFirstInsertionPt(), "rev.leave.rest");
    Leave->getTerminator()->eraseFromParent();
    auto *Add = BasicBlock::Create(Ctx, "rev.leave.add", Derivative);
    IRBuilder<> B(Leave);
    Value *At = B.CreateLoad(B.getPtrTy(), Acc.Shadow);
    B.CreateCondBr(B.CreateIsNotNull(At), Add, Rest);
    B.SetInsertPoint(Add);
    Value *Old = B.CreateAlignedLoad(Load.getType(), At, Load.getAlign());
    Value *Sum = B.CreateLoad(Load.getType(), Acc.Sum);
    B.CreateAlignedStore(B.CreateFAdd(Old, Sum), At, Load.getAlign());
    B.CreateStore(ConstantFP::getNegativeZero(Load.getType()), Acc.Sum);
    B.CreateStore(ConstantPointerNull::get(B.getPtrTy()), Acc.Shadow);
    B.CreateBr(Rest);
    // Later accumulators of the same loop split the block that now leaves.
    Acc.Loop->ReverseLeave = Rest;
  }
  return Error::success();
}

} // namespace slope
