//===- SeamCut.cpp --------------------------------------------------------===//
//
// The blocks of a combined derivative reachable from its entry without
// passing a seam form the primal sweep; the blocks after the seams form the
// reverse sweep. The augmented forward is a copy whose seams store the
// crossing values into the record and return; the reverse part is a copy
// whose new entry loads them and jumps to the seam the record names.
//
//===----------------------------------------------------------------------===//
#include "SeamCut.h"
#include "CloneInto.h"
#include "DiffError.h"
#include "LibC.h"
#include "Preprocess.h"
#include "SplitDerivative.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace slope {

std::optional<unsigned> seamIndex(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  unsigned Index;
  if (!Callee || !Callee->getName().starts_with(SeamPrefix) ||
      Callee->getName().drop_front(SeamPrefix.size()).getAsInteger(10, Index))
    return std::nullopt;
  return Index;
}

namespace {

/// malloc's guaranteed alignment on the targets Slope supports.
const Align RecordAlign(16);

class SeamCut {
public:
  SeamCut(Function &Combined, bool ReturnsValue)
      : Combined(Combined), ReturnsValue(ReturnsValue) {}

  Error analyze();
  void buildAugmented(Function &Augmented);
  void buildReverse(Function &Reverse);

private:
  Error findSeams();
  void partition();
  Error layOutRecord();
  /// A copy of Combined in \p Into; parameters map in order, and those
  /// Into lacks (the seed in the augmented forward) become poison.
  void cloneInto(Function &Into, ValueToValueMapTy &Map);
  /// Record field \p Field, addressed from \p Record.
  Value *field(IRBuilderBase &B, Value *Record, unsigned Field);
  Align fieldAlign(unsigned Field) const;
  /// Replaces the copies of the allocas by their fields of the record.
  void moveAllocasIntoRecord(ValueToValueMapTy &Map, IRBuilderBase &B,
                             Value *Record);

  /// Whether \p U puts the primal result into the struct a return of the
  /// combined derivative returns (the reverse part leaves it poison).
  bool isPrimalResultUse(const Use &U) const;

  Function &Combined;
  /// Whether the primal returns a value (field 0 of the returned struct).
  bool ReturnsValue;
  /// Seams by index; each is the first instruction of its block.
  SmallVector<CallInst *, 4> Seams;
  SmallPtrSet<BasicBlock *, 32> PrimalBlocks;
  SmallVector<BasicBlock *, 32> ReverseBlocks;
  /// Values of the primal sweep used in the reverse sweep.
  SmallVector<Instruction *, 16> Crossing;
  SmallVector<AllocaInst *, 8> Allocas;
  DominatorTree DT;
  /// Field 0: the seam index; then the crossing values; then the allocas.
  SmallVector<uint64_t, 16> Offsets;
  uint64_t RecordSize = 0;
};

Error SeamCut::findSeams() {
  for (BasicBlock &BB : Combined)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (std::optional<unsigned> Index = seamIndex(*Call)) {
          if (Seams.size() <= *Index)
            Seams.resize(*Index + 1);
          Seams[*Index] = Call;
        }
  if (Seams.empty() || is_contained(Seams, nullptr))
    return make_error<DiffError>("internal error: the derivative of '" +
                                 sourceName(Combined.getName()) +
                                 "' cannot be split at its returns");
  // Each seam starts a block whose single predecessor branches to it.
  for (CallInst *Seam : Seams)
    Seam->getParent()->splitBasicBlock(Seam, "seam");
  return Error::success();
}

void SeamCut::partition() {
  SmallPtrSet<BasicBlock *, 4> SeamBlocks;
  for (CallInst *Seam : Seams)
    SeamBlocks.insert(Seam->getParent());
  SmallVector<BasicBlock *, 32> Work{&Combined.getEntryBlock()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (SeamBlocks.contains(BB) || !PrimalBlocks.insert(BB).second)
      continue;
    append_range(Work, successors(BB));
  }
  SmallPtrSet<BasicBlock *, 32> Seen;
  for (BasicBlock *Seam : SeamBlocks)
    Work.push_back(Seam);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    ReverseBlocks.push_back(BB);
    append_range(Work, successors(BB));
  }
}

Error SeamCut::layOutRecord() {
  auto Fail = [&](const Instruction &I, StringRef Why) {
    return make_error<DiffError>(
        "cannot differentiate '" + sourceName(Combined.getName()) +
            "' through calls in reverse mode: " + Why.str(),
        &I);
  };
  for (BasicBlock *BB : ReverseBlocks)
    if (PrimalBlocks.contains(BB))
      return Fail(*BB->getTerminator(),
                  "its reverse sweep re-enters its primal sweep");
  SmallPtrSet<BasicBlock *, 32> InReverse(ReverseBlocks.begin(),
                                          ReverseBlocks.end());
  const DataLayout &DL = Combined.getDataLayout();
  auto AddField = [&](uint64_t Size, Align FieldAlign) {
    Offsets.push_back(alignTo(RecordSize, FieldAlign));
    RecordSize = Offsets.back() + Size;
  };
  AddField(4, Align(4)); // the seam index
  for (BasicBlock &BB : Combined) {
    if (!PrimalBlocks.contains(&BB))
      continue;
    for (Instruction &I : BB) {
      if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
        if (!Alloca->isStaticAlloca())
          return Fail(I, "it allocates stack memory of varying size");
        if (std::max(Alloca->getAlign(),
                     DL.getABITypeAlign(Alloca->getAllocatedType())) >
            RecordAlign)
          return Fail(I, "a local variable is over-aligned");
        Allocas.push_back(Alloca);
        continue;
      }
      if (any_of(I.uses(), [&](Use &U) {
            auto *User = cast<Instruction>(U.getUser());
            auto *Call = dyn_cast<CallInst>(User);
            return InReverse.contains(User->getParent()) &&
                   !isPrimalResultUse(U) && !(Call && seamIndex(*Call));
          })) {
        if (!I.getType()->isFirstClassType() || I.getType()->isTokenTy())
          return Fail(I, "a value of its primal sweep cannot be kept");
        Crossing.push_back(&I);
        AddField(DL.getTypeStoreSize(I.getType()),
                 DL.getABITypeAlign(I.getType()));
      }
    }
  }
  // Allocas keep their alignment: code may rely on it (aligned vector
  // stores, memset with an alignment).
  for (AllocaInst *Alloca : Allocas)
    AddField(Alloca->getAllocationSize(DL)->getFixedValue(),
             std::max(Alloca->getAlign(),
                      DL.getABITypeAlign(Alloca->getAllocatedType())));
  return Error::success();
}

bool SeamCut::isPrimalResultUse(const Use &U) const {
  auto *Insert = dyn_cast<InsertValueInst>(U.getUser());
  if (!ReturnsValue || !Insert || U.getOperandNo() != 1 ||
      Insert->getIndices() != ArrayRef<unsigned>{0})
    return false;
  const Value *Aggregate = Insert;
  while (Aggregate->hasOneUse()) {
    const User *Next = *Aggregate->user_begin();
    if (isa<ReturnInst>(Next))
      return true;
    if (!isa<InsertValueInst>(Next))
      return false;
    Aggregate = Next;
  }
  return false;
}

Error SeamCut::analyze() {
  if (Error E = findSeams())
    return E;
  partition();
  DT.recalculate(Combined);
  return layOutRecord();
}

void SeamCut::cloneInto(Function &Into, ValueToValueMapTy &Map) {
  for (Argument &A : Combined.args())
    Map[&A] = A.getArgNo() < Into.arg_size() &&
                      Into.getArg(A.getArgNo())->getType() == A.getType()
                  ? static_cast<Value *>(Into.getArg(A.getArgNo()))
                  : PoisonValue::get(A.getType());
  // Named first, so that the copied instructions yield the names.
  for (Argument &A : Into.args())
    A.setName(A.getArgNo() + 1 < Into.arg_size()
                  ? Combined.getArg(A.getArgNo())->getName()
                  : "record");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&Into, &Combined, Map,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  Into.setAttributes(AttributeList::get(
      Into.getContext(), Combined.getAttributes().getFnAttrs(), {}, {}));
  Into.setLinkage(GlobalValue::InternalLinkage);
  Into.setCallingConv(CallingConv::C);
}

Value *SeamCut::field(IRBuilderBase &B, Value *RecordPtr, unsigned Field) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), RecordPtr, Offsets[Field]);
}

Align SeamCut::fieldAlign(unsigned Field) const {
  return commonAlignment(RecordAlign, Offsets[Field]);
}

void SeamCut::moveAllocasIntoRecord(ValueToValueMapTy &Map, IRBuilderBase &B,
                                    Value *RecordPtr) {
  unsigned First = 1 + Crossing.size();
  for (auto [K, Alloca] : enumerate(Allocas)) {
    auto *Copy = cast<AllocaInst>(Map[Alloca]);
    // Lifetime markers are for stack slots; the record outlives them.
    for (User *U : make_early_inc_range(Copy->users()))
      if (auto *Intr = dyn_cast<IntrinsicInst>(U);
          Intr && Intr->isLifetimeStartOrEnd())
        Intr->eraseFromParent();
    Copy->replaceAllUsesWith(field(B, RecordPtr, First + K));
    Copy->eraseFromParent();
  }
}

void SeamCut::buildAugmented(Function &Augmented) {
  ValueToValueMapTy Map;
  cloneInto(Augmented, Map);
  IRBuilder<> B(&*Augmented.getEntryBlock().getFirstInsertionPt());
  Value *RecordPtr =
      callMalloc(B, B.getInt64(std::max<uint64_t>(RecordSize, 1)), "record");
  // The builder stands before the first alloca, which is about to go.
  Argument *RecordOut = Augmented.getArg(Augmented.arg_size() - 1);
  RecordOut->setName("record.out");
  B.SetInsertPoint(B.CreateStore(RecordPtr, RecordOut));
  moveAllocasIntoRecord(Map, B, RecordPtr);

  for (auto [Index, Seam] : enumerate(Seams)) {
    BasicBlock *Before = Seam->getParent()->getSinglePredecessor();
    auto *Branch = cast<BranchInst>(Map[Before->getTerminator()]);
    IRBuilder<> Exit(Branch);
    Exit.CreateAlignedStore(Exit.getInt32(Index), field(Exit, RecordPtr, 0),
                            fieldAlign(0));
    for (auto [K, V] : enumerate(Crossing))
      if (DT.dominates(V, Before->getTerminator()))
        Exit.CreateAlignedStore(Map[V], field(Exit, RecordPtr, 1 + K),
                                fieldAlign(1 + K));
    if (Seam->arg_size() > 0)
      Exit.CreateRet(Map[Seam->getArgOperand(0)]);
    else
      Exit.CreateRetVoid();
    Branch->eraseFromParent();
  }
  EliminateUnreachableBlocks(Augmented);
}

void SeamCut::buildReverse(Function &Reverse) {
  ValueToValueMapTy Map;
  cloneInto(Reverse, Map);
  Argument *RecordPtr = Reverse.getArg(Reverse.arg_size() - 1);
  RecordPtr->addAttr(Attribute::get(Reverse.getContext(), HandedOverRecord));
  BasicBlock *Restore = BasicBlock::Create(Reverse.getContext(), "restore",
                                           &Reverse, &Reverse.getEntryBlock());
  IRBuilder<> B(Restore);
  moveAllocasIntoRecord(Map, B, RecordPtr);
  SmallPtrSet<BasicBlock *, 32> InReverse;
  for (BasicBlock *BB : ReverseBlocks)
    InReverse.insert(cast<BasicBlock>(Map[BB]));
  for (auto [K, V] : enumerate(Crossing)) {
    Value *Copy = Map[V];
    Value *Kept = B.CreateAlignedLoad(V->getType(), field(B, RecordPtr, 1 + K),
                                      fieldAlign(1 + K), V->getName());
    Copy->replaceUsesWithIf(Kept, [&](Use &U) {
      return InReverse.contains(cast<Instruction>(U.getUser())->getParent());
    });
  }
  auto SeamBlock = [&](CallInst *Seam) {
    return cast<BasicBlock>(Map[Seam->getParent()]);
  };
  if (Seams.size() == 1) {
    B.CreateBr(SeamBlock(Seams.front()));
  } else {
    Value *Index = B.CreateAlignedLoad(B.getInt32Ty(), field(B, RecordPtr, 0),
                                       fieldAlign(0), "seam");
    SwitchInst *Switch =
        B.CreateSwitch(Index, SeamBlock(Seams.front()), Seams.size());
    for (auto [K, Seam] : enumerate(Seams))
      Switch->addCase(B.getInt32(K), SeamBlock(Seam));
  }
  for (CallInst *Seam : Seams)
    cast<Instruction>(Map[Seam])->eraseFromParent();
  EliminateUnreachableBlocks(Reverse);

  for (BasicBlock &BB : Reverse)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> AtRet(Ret);
      callFree(AtRet, RecordPtr);
    }
  // The caller has the primal result from the augmented forward.
  for (Instruction &I : instructions(Reverse))
    for (Use &U : I.operands())
      if (isPrimalResultUse(U))
        U.set(PoisonValue::get(U->getType()));
}

} // namespace

Error cutAtSeams(Function &Combined, Function &Augmented, Function &Reverse) {
  SeamCut Cut(Combined, !Augmented.getReturnType()->isVoidTy());
  if (Error E = Cut.analyze())
    return E;
  Cut.buildAugmented(Augmented);
  Cut.buildReverse(Reverse);
  for (Function *Part : {&Augmented, &Reverse}) {
    exposeSeeds(*Part);
    if (Error E = verifyGenerated(*Part))
      return E;
    simplify(*Part);
  }
  return Error::success();
}

} // namespace slope
