//===- Tape.cpp -----------------------------------------------------------===//
#include "Tape.h"

#include "DiffError.h"
#include "LibC.h"
#include "TapeCache.h"
#include "Target.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace slope {

namespace {
/// Frames start at multiples of this (the base comes from realloc).
constexpr uint64_t FrameAlign = 8;
constexpr uint64_t MinimumCapacity = 4096;
} // namespace

Tape::Tape(Function &F) : F(F) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Base = B.CreateAlloca(B.getPtrTy(), nullptr, "tape.base");
  Size = B.CreateAlloca(B.getInt64Ty(), nullptr, "tape.size");
  Capacity = B.CreateAlloca(B.getInt64Ty(), nullptr, "tape.capacity");
  B.CreateStore(ConstantPointerNull::get(B.getPtrTy()), Base);
  B.CreateStore(B.getInt64(0), Size);
  InitEnd = B.CreateStore(B.getInt64(0), Capacity);
}

uint64_t Tape::slotBytes(Type *Ty) const {
  return F.getDataLayout().getTypeAllocSize(Ty).getFixedValue();
}

Align Tape::slotAlign(Type *Ty) const {
  return std::min(F.getDataLayout().getABITypeAlign(Ty), Align(FrameAlign));
}

MDNode *tapeEntriesScope(LLVMContext &Ctx) {
  MDBuilder MDB(Ctx);
  MDNode *Domain = MDB.createAliasScopeDomain("slope.tape");
  return MDNode::get(Ctx, {MDB.createAliasScope("slope.tape.entries", Domain)});
}

Value *Tape::read(BasicBlock &Primal, BasicBlock &Reverse, Value *V) {
  Frame &Fr = Frames[&Primal];
  if (Value *Existing = Fr.Reads.lookup(V))
    return Existing;
  if (!Fr.Placeholder) {
    IRBuilder<> B(&Reverse, Reverse.getFirstInsertionPt());
    Fr.Placeholder = cast<Instruction>(
        B.CreateFreeze(PoisonValue::get(B.getPtrTy()), "tape.frame"));
    Fr.Reverse = &Reverse;
  }
  IRBuilder<> B(Fr.Placeholder->getParent(),
                std::next(Fr.Placeholder->getIterator()));
  // Entries are packed at their natural alignment (at most the frame's).
  uint64_t Offset = alignTo(Fr.Bytes, slotAlign(V->getType()));
  Value *Address =
      B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Fr.Placeholder, Offset);
  auto *Read = B.CreateAlignedLoad(
      V->getType(), Address, slotAlign(V->getType()), V->getName() + ".tape");
  Read->setMetadata(LLVMContext::MD_alias_scope,
                    tapeEntriesScope(F.getContext()));
  Fr.Values.push_back(V);
  Fr.Offsets.push_back(Offset);
  Fr.Bytes = Offset + slotBytes(V->getType());
  Fr.Reads[V] = Read;
  explainEntry(V);
  return Read;
}

/// What the entry holds, in words, for -Rpass-analysis=slope.
static std::string
describeTapedValue(const Instruction &I,
                   const DenseMap<LoadInst *, Instruction *> &LaterWriters) {
  std::string Type;
  raw_string_ostream OS(Type);
  I.getType()->print(OS);
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    Instruction *Writer = LaterWriters.lookup(const_cast<LoadInst *>(Load));
    if (!Writer)
      return "a " + Type + " loaded from memory";
    const Value *Read = getUnderlyingObject(Load->getPointerOperand());
    const Value *Written = nullptr;
    if (auto *Store = dyn_cast<StoreInst>(Writer))
      Written = getUnderlyingObject(Store->getPointerOperand());
    else if (auto *Bulk = dyn_cast<MemIntrinsic>(Writer))
      Written = getUnderlyingObject(Bulk->getRawDest());
    // Through a parameter that may overlap another: say what would help.
    auto *Param = dyn_cast<Argument>(Read);
    if (Param && !Param->hasNoAliasAttr() && Written != Read)
      return "a " + Type +
             " loaded from memory that a write through another pointer may "
             "change (declare the pointer parameters __restrict, or pass "
             "every pointer with its extent)";
    return "a " + Type +
           " loaded from memory that a later write (here, or in a later "
           "iteration) may change";
  }
  // Values the emitters introduce.
  if (I.getName().starts_with("pre.image"))
    return "the address of the copy of what a bulk write overwrites";
  if (I.getName().starts_with("loop.pre.image"))
    return "the address of the copy of what a loop's store overwrites";
  if (I.getName().starts_with("came.from"))
    return "which way a branch went";
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (Function *Callee = Call->getCalledFunction())
      return "the result of '" + Callee->getName().str() + "'";
  if (isa<PHINode>(I))
    return "a " + Type + " carried from the previous iteration";
  return std::string("a ") + I.getOpcodeName() + " result";
}

void Tape::explainEntry(Value *V) {
  // An emitter (with hotness, block frequencies) only when asked for.
  auto *I = dyn_cast<Instruction>(V);
  if (!I ||
      !F.getContext().getDiagHandlerPtr()->isAnalysisRemarkEnabled("slope"))
    return;
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis("slope", "Taped", I)
           << "the reverse sweep of '" << sourceName(F.getName()) << "' tapes "
           << (Descriptions.count(I) ? Descriptions.lookup(I)
                                     : describeTapedValue(*I, LaterWriters))
           << " (" << ore::NV("Bytes", slotBytes(V->getType()))
           << " bytes each time this runs)";
  });
}

uint64_t Tape::frameBytes(BasicBlock &Primal) const {
  auto It = Frames.find(&Primal);
  return It == Frames.end() ? 0 : alignTo(It->second.Bytes, FrameAlign);
}

Function *Tape::growFunction() {
  // {base, capacity} slope.tape.grow(base, capacity, needed): realloc to
  // max(needed, 1.5 * capacity, MinimumCapacity); traps when out of memory.
  // By half, not doubling: the capacity reached overshoots what a gradient
  // uses by less, and a thread's kept buffer spares later calls the growth.
  Module &M = *F.getParent();
  if (Function *Existing = M.getFunction("slope.tape.grow"))
    return Existing;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  StructType *Result = StructType::get(Ctx, {Ptr, I64});
  Function *Grow =
      Function::Create(FunctionType::get(Result, {Ptr, I64, I64}, false),
                       GlobalValue::InternalLinkage, "slope.tape.grow", M);
  Grow->addFnAttr(Attribute::NoInline);
  Grow->addFnAttr(Attribute::Cold);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Grow);
  BasicBlock *Fail = BasicBlock::Create(Ctx, "out.of.memory", Grow);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Grow);
  IRBuilder<> B(Entry);
  Value *OldBase = Grow->getArg(0), *OldCap = Grow->getArg(1),
        *Needed = Grow->getArg(2);
  Value *ByHalf = B.CreateAdd(OldCap, B.CreateLShr(OldCap, 1));
  Value *NewCap = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.CreateBinaryIntrinsic(Intrinsic::umax, ByHalf, Needed),
      B.getInt64(MinimumCapacity));
  bool HasRealloc = targetFacts(M).HasRealloc;
  Value *NewBase;
  if (HasRealloc) {
    FunctionCallee Realloc = M.getOrInsertFunction(
        "realloc", FunctionType::get(Ptr, {Ptr, I64}, false));
    NewBase = B.CreateCall(Realloc, {OldBase, NewCap});
    // Reverse mode over this derivative says what it met (ReverseMemory).
    cast<CallInst>(NewBase)->setMetadata(TapeGrowthMetadata,
                                         MDNode::get(Ctx, {}));
  } else {
    NewBase = callMalloc(B, NewCap);
  }
  B.CreateCondBr(B.CreateIsNull(NewBase), Fail, Done);
  B.SetInsertPoint(Fail);
  B.CreateIntrinsic(Intrinsic::trap, {}, {});
  B.CreateUnreachable();
  B.SetInsertPoint(Done);
  if (!HasRealloc) { // device code: malloc, copy, free
    B.CreateMemCpy(NewBase, Align(FrameAlign), OldBase, Align(FrameAlign),
                   OldCap);
    callFree(B, OldBase);
  }
  Value *R = B.CreateInsertValue(PoisonValue::get(Result), NewBase, 0);
  B.CreateRet(B.CreateInsertValue(R, NewCap, 1));
  return Grow;
}

Function *Tape::ensureFunction() {
  Module &M = *F.getParent();
  if (Function *Existing = M.getFunction("slope.tape.ensure"))
    return Existing;
  Function *Grow = growFunction();
  Function *Ensure =
      Function::Create(Grow->getFunctionType(), GlobalValue::InternalLinkage,
                       "slope.tape.ensure", M);
  LLVMContext &Ctx = M.getContext();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", Ensure);
  BasicBlock *Enough = BasicBlock::Create(Ctx, "enough", Ensure);
  BasicBlock *Short = BasicBlock::Create(Ctx, "short", Ensure);
  IRBuilder<> B(Entry);
  Value *OldBase = Ensure->getArg(0), *OldCap = Ensure->getArg(1),
        *Needed = Ensure->getArg(2);
  B.CreateCondBr(B.CreateICmpUGT(Needed, OldCap), Short, Enough,
                 MDBuilder(Ctx).createUnlikelyBranchWeights());
  B.SetInsertPoint(Enough);
  Type *Result = Grow->getReturnType();
  Value *Same = B.CreateInsertValue(PoisonValue::get(Result), OldBase, 0);
  B.CreateRet(B.CreateInsertValue(Same, OldCap, 1));
  B.SetInsertPoint(Short);
  B.CreateRet(B.CreateCall(Grow, {OldBase, OldCap, Needed}));
  return Ensure;
}

Value *Tape::chunkBytes(IRBuilderBase &B, Value *Bytes) {
  Value *Wide = B.CreateZExtOrTrunc(Bytes, B.getInt64Ty());
  return B.CreateAnd(B.CreateAdd(Wide, B.getInt64(FrameAlign - 1)),
                     B.getInt64(~(FrameAlign - 1)));
}

Value *Tape::pushChunk(IRBuilderBase &B, Value *Bytes) {
  HasChunks = true;
  Value *Used = B.CreateLoad(B.getInt64Ty(), Size);
  Value *Needed = B.CreateAdd(Used, chunkBytes(B, Bytes));
  Value *Room = B.CreateCall(ensureFunction(),
                             {B.CreateLoad(B.getPtrTy(), Base),
                              B.CreateLoad(B.getInt64Ty(), Capacity), Needed});
  Value *NewBase = B.CreateExtractValue(Room, 0);
  B.CreateStore(NewBase, Base);
  B.CreateStore(B.CreateExtractValue(Room, 1), Capacity);
  B.CreateStore(Needed, Size);
  return B.CreateInBoundsGEP(B.getInt8Ty(), NewBase, Used);
}

Value *Tape::popChunk(IRBuilderBase &B, Value *Bytes) {
  Value *Remaining =
      B.CreateSub(B.CreateLoad(B.getInt64Ty(), Size), chunkBytes(B, Bytes));
  B.CreateStore(Remaining, Size);
  return B.CreateInBoundsGEP(B.getInt8Ty(), B.CreateLoad(B.getPtrTy(), Base),
                             Remaining);
}

void Tape::reserve(IRBuilderBase &B, Value *Bytes) {
  Value *Needed = B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Size), Bytes);
  Value *Cap = B.CreateLoad(B.getInt64Ty(), Capacity);
  Value *Full = B.CreateICmpUGT(Needed, Cap, "tape.full");
  Instruction *Then = SplitBlockAndInsertIfThen(
      Full, &*B.GetInsertPoint(), false,
      MDBuilder(F.getContext()).createUnlikelyBranchWeights());
  IRBuilder<> G(Then);
  Value *Grown = G.CreateCall(growFunction(),
                              {G.CreateLoad(G.getPtrTy(), Base), Cap, Needed});
  G.CreateStore(G.CreateExtractValue(Grown, 0), Base);
  G.CreateStore(G.CreateExtractValue(Grown, 1), Capacity);
  B.SetInsertPoint(Then->getParent()->getSingleSuccessor(),
                   Then->getParent()->getSingleSuccessor()->begin());
}

void Tape::emitPush(BasicBlock &Primal, Frame &Fr) {
  IRBuilder<> B(Primal.getTerminator());
  if (!Reserved.contains(&Primal))
    reserve(B, B.getInt64(Fr.Bytes));
  Value *Used = B.CreateLoad(B.getInt64Ty(), Size);
  Value *Top = B.CreateInBoundsGEP(B.getInt8Ty(),
                                   B.CreateLoad(B.getPtrTy(), Base), Used);
  for (auto [V, Offset] : zip(Fr.Values, Fr.Offsets))
    B.CreateAlignedStore(
        V, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Top, Offset),
        slotAlign(V->getType()));
  B.CreateStore(B.CreateAdd(Used, B.getInt64(Fr.Bytes)), Size);
}

void Tape::emitPop(Frame &Fr) {
  IRBuilder<> B(Fr.Placeholder);
  Value *Remaining =
      B.CreateSub(B.CreateLoad(B.getInt64Ty(), Size), B.getInt64(Fr.Bytes));
  B.CreateStore(Remaining, Size);
  Value *Top = B.CreateInBoundsGEP(B.getInt8Ty(),
                                   B.CreateLoad(B.getPtrTy(), Base), Remaining);
  Fr.Placeholder->replaceAllUsesWith(Top);
  Fr.Placeholder->eraseFromParent();
}

void Tape::finalize() {
  if (used() && keepsTapeBetweenCalls(*F.getParent())) {
    IRBuilder<> B(InitEnd->getNextNode());
    emitTakeKeptTape(B, Base, Capacity);
  }
  for (auto &[Primal, Fr] : Frames) {
    Fr.Bytes = alignTo(Fr.Bytes, FrameAlign);
    emitPush(*Primal, Fr);
    emitPop(Fr);
  }
}

void Tape::emitFree(IRBuilderBase &B) {
  if (!used())
    return;
  Module &M = *F.getParent();
  Value *Buffer = B.CreateLoad(B.getPtrTy(), Base);
  if (keepsTapeBetweenCalls(M))
    return emitReleaseTape(B, Buffer, B.CreateLoad(B.getInt64Ty(), Capacity));
  callFree(B, Buffer);
}

} // namespace slope
