//===- OpenMP.cpp ---------------------------------------------------------===//
#include "OpenMP.h"
#include "DiffError.h"
#include "RunTimeStops.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {
namespace {

constexpr StringLiteral RegionAttr = "slope-parallel-region";
constexpr StringLiteral RegionMD = "slope.omp.region";
// Critical sections as differentiated code runs them (see
// rewriteCriticalSections).
constexpr StringLiteral EnterName = "slope.omp.enter";
constexpr StringLiteral LeaveName = "slope.omp.leave";
constexpr StringLiteral WaitTurnName = "slope.omp.wait_turn";
constexpr StringLiteral PassTurnName = "slope.omp.pass_turn";

Function *calledFunction(const CallBase &Call) {
  return dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
}

bool calls(const CallBase &Call, StringRef Name) {
  Function *Callee = calledFunction(Call);
  return Callee && Callee->getName() == Name;
}

/// Declarations of the runtime's entry points Slope calls.
struct Runtime {
  explicit Runtime(Module &M)
      : M(M), Ptr(PointerType::getUnqual(M.getContext())),
        I32(Type::getInt32Ty(M.getContext())),
        Void(Type::getVoidTy(M.getContext())) {}

  FunctionCallee get(StringRef Name, Type *Result, ArrayRef<Type *> Params,
                     bool VarArg = false) {
    return M.getOrInsertFunction(Name,
                                 FunctionType::get(Result, Params, VarArg));
  }
  FunctionCallee fork() {
    return get("__kmpc_fork_call", Void, {Ptr, I32, Ptr}, true);
  }
  FunctionCallee threadNumber() {
    return get("__kmpc_global_thread_num", I32, {Ptr});
  }
  FunctionCallee barrier() { return get("__kmpc_barrier", Void, {Ptr, I32}); }
  FunctionCallee critical(bool Enter) {
    return get(Enter ? "__kmpc_critical" : "__kmpc_end_critical", Void,
               {Ptr, I32, Ptr});
  }
  FunctionCallee teamIndex() { return get("omp_get_thread_num", I32, {}); }
  FunctionCallee teamSize() { return get("omp_get_num_threads", I32, {}); }
  FunctionCallee pushTeamSize() {
    return get("__kmpc_push_num_threads", Void, {Ptr, I32, I32});
  }
  Type *I64() { return Type::getInt64Ty(M.getContext()); }
  FunctionCallee enter() { return get(EnterName, I64(), {Ptr, I32, Ptr, Ptr}); }
  FunctionCallee leave() {
    return get(LeaveName, Void, {Ptr, I32, Ptr, Ptr, I64()});
  }
  FunctionCallee waitTurn() { return get(WaitTurnName, Void, {Ptr, I64()}); }
  FunctionCallee passTurn() { return get(PassTurnName, Void, {Ptr, I64()}); }

  Module &M;
  Type *Ptr, *I32, *Void;
};

/// The source location (ident_t) a region's runtime calls pass.
Value *regionLocation(const CallBase &Region) {
  if (MDNode *MD = Region.getMetadata(RegionMD))
    if (auto *Loc = mdconst::dyn_extract_or_null<Constant>(MD->getOperand(0)))
      return Loc;
  // Every entry point accepts a null location.
  return ConstantPointerNull::get(PointerType::getUnqual(Region.getContext()));
}

/// Reductions in the form whose data flow the IR shows: the runtime may
/// otherwise combine the threads' partial values in its own code (a tree
/// of calls to the reduction function), invisible to differentiation.
/// `__kmpc_reduce*` becomes a critical section around the combining code,
/// one of the methods the runtime itself chooses from.
void rewriteReductions(Function &F) {
  Runtime RT(*F.getParent());
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call)
      continue;
    IRBuilder<> B(Call);
    if (calls(*Call, "__kmpc_reduce_nowait") || calls(*Call, "__kmpc_reduce")) {
      // (loc, gtid, count, size, list, combine, lock) -> 1: "combine here"
      B.CreateCall(RT.critical(true),
                   {Call->getArgOperand(0), Call->getArgOperand(1),
                    Call->getArgOperand(6)});
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 1));
      Call->eraseFromParent();
    } else if (calls(*Call, "__kmpc_end_reduce_nowait") ||
               calls(*Call, "__kmpc_end_reduce")) {
      bool Waits = calls(*Call, "__kmpc_end_reduce");
      Value *Loc = Call->getArgOperand(0), *Thread = Call->getArgOperand(1);
      B.CreateCall(RT.critical(false), {Loc, Thread, Call->getArgOperand(2)});
      if (Waits)
        B.CreateCall(RT.barrier(), {Loc, Thread});
      Call->eraseFromParent();
    }
  }
}

/// The counter of the sections guarded by \p Lock: one per lock name, shared
/// by every file that names it (common linkage, as the lock itself).
GlobalVariable *turnOf(Module &M, Value *Lock) {
  std::string Name = "slope.omp.turn";
  if (auto *GV = dyn_cast<GlobalVariable>(Lock->stripPointerCasts()))
    Name = (GV->getName() + ".slope.turn").str();
  Type *I64 = Type::getInt64Ty(M.getContext());
  if (GlobalVariable *Existing = M.getNamedGlobal(Name))
    return Existing;
  auto *Turn = new GlobalVariable(M, I64, false, GlobalValue::CommonLinkage,
                                  ConstantInt::get(I64, 0), Name);
  Turn->setAlignment(Align(8));
  return Turn;
}

/// Critical sections run in some order, and the reverse sweep must undo
/// them in the opposite one when they do not commute (a max reduction, an
/// update that reads what another thread left). Each section draws a
/// ticket from its lock's counter while it holds the lock; the reverse
/// sweep lets the holder of the highest ticket in first (a turnstile), so
/// the sections' reverses run one at a time, last first.
void rewriteCriticalSections(Function &F) {
  Module &M = *F.getParent();
  Runtime RT(M);
  DenseMap<Value *, AllocaInst *> Tickets;
  auto TicketSlot = [&](Value *Lock) {
    AllocaInst *&Slot = Tickets[Lock];
    if (!Slot)
      Slot = IRBuilder<>(&*F.getEntryBlock().getFirstInsertionPt())
                 .CreateAlloca(RT.I64(), nullptr, "omp.ticket");
    return Slot;
  };
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call)
      continue;
    bool Enter = calls(*Call, "__kmpc_critical") ||
                 calls(*Call, "__kmpc_critical_with_hint");
    if (!Enter && !calls(*Call, "__kmpc_end_critical"))
      continue;
    IRBuilder<> B(Call);
    Value *Lock = Call->getArgOperand(2);
    SmallVector<Value *, 5> Args = {
        Call->getArgOperand(0), Call->getArgOperand(1), Lock, turnOf(M, Lock)};
    if (Enter) {
      B.CreateStore(B.CreateCall(RT.enter(), Args, "ticket"), TicketSlot(Lock));
    } else {
      Args.push_back(B.CreateLoad(RT.I64(), TicketSlot(Lock), "ticket"));
      B.CreateCall(RT.leave(), Args);
    }
    Call->eraseFromParent();
  }
}

/// Bodies of the critical-section helpers that \p M calls.
void defineCriticalSectionHelpers(Module &M) {
  Runtime RT(M);
  LLVMContext &Ctx = M.getContext();
  auto Define = [&](StringRef Name) -> Function * {
    Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration())
      return nullptr;
    F->setLinkage(GlobalValue::InternalLinkage);
    F->addFnAttr(Attribute::NoUnwind);
    BasicBlock::Create(Ctx, "entry", F);
    return F;
  };
  if (Function *F = Define(EnterName)) {
    IRBuilder<> B(&F->getEntryBlock());
    B.CreateCall(RT.critical(true), {F->getArg(0), F->getArg(1), F->getArg(2)});
    Value *Ticket = B.CreateLoad(RT.I64(), F->getArg(3));
    B.CreateStore(B.CreateAdd(Ticket, B.getInt64(1)), F->getArg(3));
    B.CreateRet(Ticket);
  }
  if (Function *F = Define(LeaveName)) {
    IRBuilder<> B(&F->getEntryBlock());
    B.CreateCall(RT.critical(false),
                 {F->getArg(0), F->getArg(1), F->getArg(2)});
    B.CreateRetVoid();
  }
  if (Function *F = Define(WaitTurnName)) {
    IRBuilder<> B(&F->getEntryBlock());
    auto *Wait = BasicBlock::Create(Ctx, "wait", F);
    auto *Yield = BasicBlock::Create(Ctx, "yield", F);
    auto *Done = BasicBlock::Create(Ctx, "done", F);
    B.CreateBr(Wait);
    B.SetInsertPoint(Wait);
    LoadInst *Turn = B.CreateAlignedLoad(RT.I64(), F->getArg(0), Align(8));
    Turn->setAtomic(AtomicOrdering::Acquire);
    Value *Mine = B.CreateAdd(F->getArg(1), B.getInt64(1));
    B.CreateCondBr(B.CreateICmpEQ(Turn, Mine), Done, Yield);
    B.SetInsertPoint(Yield);
    B.CreateCall(M.getOrInsertFunction("sched_yield", RT.I32));
    B.CreateBr(Wait);
    B.SetInsertPoint(Done);
    B.CreateRetVoid();
  }
  if (Function *F = Define(PassTurnName)) {
    IRBuilder<> B(&F->getEntryBlock());
    B.CreateAlignedStore(F->getArg(1), F->getArg(0), Align(8))
        ->setAtomic(AtomicOrdering::Release);
    B.CreateRetVoid();
  }
}

/// thread(gtid, btid, params...): a team's thread runs \p Part with the
/// team record \p TeamArg (the last parameter) as \p Run says.
Function *threadFunction(Function &Part, StringRef Name,
                         function_ref<void(IRBuilderBase &, Function &)> Run) {
  Module &M = *Part.getParent();
  SmallVector<Type *, 8> Params(Part.getFunctionType()->params());
  auto *Thread = Function::Create(
      FunctionType::get(Type::getVoidTy(M.getContext()), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  Thread->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Thread));
  Run(B, *Thread);
  return Thread;
}

SmallVector<Value *, 8> forwardedArguments(Function &F, Value *Last) {
  SmallVector<Value *, 8> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  Args.back() = Last;
  return Args;
}

Value *recordAddress(IRBuilderBase &B, Value *Team, Value *Index) {
  Value *Slot = B.CreateAdd(B.CreateZExt(Index, B.getInt64Ty()), B.getInt64(1));
  return B.CreateGEP(B.getPtrTy(), Team, Slot, "thread.record.slot");
}

} // namespace

void exposeParallelRegions(Function &F) {
  rewriteReductions(F);
  rewriteCriticalSections(F);
  Runtime RT(*F.getParent());
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call || !calls(*Call, "__kmpc_fork_call"))
      continue;
    if (Call->arg_size() < 3)
      continue;
    auto *Body =
        dyn_cast<Function>(Call->getArgOperand(2)->stripPointerCasts());
    unsigned Captured = Call->arg_size() - 3;
    if (!Body || Body->isDeclaration() || Body->isVarArg() ||
        Body->arg_size() != Captured + 2)
      continue;
    Value *Loc = Call->getArgOperand(0);
    IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Thread = Entry.CreateAlloca(RT.I32, nullptr, "omp.gtid");
    AllocaInst *TeamThread = Entry.CreateAlloca(RT.I32, nullptr, "omp.btid");
    IRBuilder<> B(Call);
    // The direct call is the region run by a team of one: what the caller
    // would compute if it never forked.
    B.CreateStore(B.CreateCall(RT.threadNumber(), {Loc}), Thread);
    B.CreateStore(B.getInt32(0), TeamThread);
    SmallVector<Value *, 8> Args = {Thread, TeamThread};
    for (unsigned A = 3; A < Call->arg_size(); ++A)
      Args.push_back(Call->getArgOperand(A));
    CallInst *Region = B.CreateCall(Body, Args);
    Region->setDebugLoc(Call->getDebugLoc());
    Region->setIsNoInline();
    if (auto *LocConstant = dyn_cast<Constant>(Loc))
      Region->setMetadata(
          RegionMD,
          MDNode::get(F.getContext(), {ValueAsMetadata::get(LocConstant)}));
    Body->addFnAttr(RegionAttr);
    Call->eraseFromParent();
  }
}

bool isParallelRegion(const CallBase &Call) {
  // The mark, or (should a transform drop it) the call site's noinline with
  // a region body: a serialized region (`if` false) calls the same body
  // without either, and is inlined.
  return Call.getMetadata(RegionMD) != nullptr ||
         (Call.getAttributes().hasFnAttr(Attribute::NoInline) &&
          calledFunction(Call) && runsInParallel(*calledFunction(Call)));
}

bool isParallelRuntimeHelper(const Function &F) {
  return F.getName().starts_with("slope.omp.");
}

bool runsInParallel(const Function &F) { return F.hasFnAttribute(RegionAttr); }

void emitFork(IRBuilderBase &B, const CallBase &Region, Function &Body,
              ArrayRef<Value *> Args) {
  Runtime RT(*B.GetInsertBlock()->getModule());
  SmallVector<Value *, 12> ForkArgs = {regionLocation(Region),
                                       B.getInt32(Args.size()), &Body};
  ForkArgs.append(Args.begin(), Args.end());
  B.CreateCall(RT.fork(), ForkArgs);
}

void restoreParallelRegions(Function &F) {
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    if (!Call || !isParallelRegion(*Call) || !calledFunction(*Call))
      continue;
    IRBuilder<> B(Call);
    SmallVector<Value *, 8> Args(drop_begin(Call->args(), 2));
    emitFork(B, *Call, *calledFunction(*Call), Args);
    Call->eraseFromParent();
  }
  defineCriticalSectionHelpers(*F.getParent());
}

Expected<SplitDerivative> teamParts(const SplitDerivative &Parts,
                                    const CallBase &Region) {
  Function &Augmented = *Parts.Augmented, &Reverse = *Parts.Reverse;
  Module &M = *Augmented.getParent();
  std::string AugmentedName = (Augmented.getName() + ".team").str();
  std::string ReverseName = (Reverse.getName() + ".team").str();
  if (Function *Existing = M.getFunction(AugmentedName))
    return SplitDerivative{Existing, M.getFunction(ReverseName)};
  const DataLayout &DL = M.getDataLayout();
  // The runtime hands a region's arguments over as pointer-sized words.
  for (Function *Part : {&Augmented, &Reverse})
    for (Type *Param : Part->getFunctionType()->params())
      if (!Param->isPointerTy() &&
          !(Param->isIntegerTy() &&
            DL.getTypeSizeInBits(Param) == DL.getPointerSizeInBits()))
        return unsupported(Region, "an OpenMP parallel region that passes "
                                   "a value other than a pointer or a "
                                   "pointer-sized integer to its body");
  Runtime RT(M);
  // Nothing but the reverse part reaches its record while it runs: alias
  // analysis may tell the record's fields from shadows (PrivateAdjoints.h).
  if (!Reverse.isDeclaration())
    Reverse.getArg(Reverse.arg_size() - 1)->addAttr(Attribute::NoAlias);

  // Each thread of the augmented team leaves its record in the team's
  // record: {i64 threads, ptr record of thread 0, ...}.
  Function *AugmentedThread = threadFunction(
      Augmented, (Augmented.getName() + ".thread").str(),
      [&](IRBuilderBase &B, Function &Thread) {
        LLVMContext &Ctx = M.getContext();
        Value *TeamSlot = Thread.getArg(Thread.arg_size() - 1);
        Value *Index = B.CreateCall(RT.teamIndex(), {}, "team.index");
        auto *Allocate = BasicBlock::Create(Ctx, "allocate", &Thread);
        auto *Start = BasicBlock::Create(Ctx, "start", &Thread);
        B.CreateCondBr(B.CreateICmpEQ(Index, B.getInt32(0)), Allocate, Start);
        B.SetInsertPoint(Allocate);
        Value *Size = B.CreateSExt(B.CreateCall(RT.teamSize(), {}),
                                   B.getInt64Ty(), "team.size");
        Value *Bytes =
            B.CreateMul(B.CreateAdd(Size, B.getInt64(1)), B.getInt64(8));
        Value *Team = B.CreateCall(
            M.getOrInsertFunction("malloc", B.getPtrTy(), B.getInt64Ty()),
            {Bytes}, "team.record");
        B.CreateStore(Size, Team);
        B.CreateStore(Team, TeamSlot);
        B.CreateBr(Start);
        B.SetInsertPoint(Start);
        // Every thread waits until the record exists.
        B.CreateCall(RT.barrier(),
                     {regionLocation(Region),
                      B.CreateLoad(RT.I32, Thread.getArg(0), "gtid")});
        Value *Record = recordAddress(
            B, B.CreateLoad(B.getPtrTy(), TeamSlot, "team"), Index);
        B.CreateCall(&Augmented, forwardedArguments(Thread, Record));
        B.CreateRetVoid();
      });

  // The reverse team has as many threads; thread i runs the reverse part
  // with record i.
  Function *ReverseThread = threadFunction(
      Reverse, (Reverse.getName() + ".thread").str(),
      [&](IRBuilderBase &B, Function &Thread) {
        LLVMContext &Ctx = M.getContext();
        Value *Team = Thread.getArg(Thread.arg_size() - 1);
        Value *Index = B.CreateCall(RT.teamIndex(), {}, "team.index");
        Value *Size = B.CreateCall(RT.teamSize(), {}, "team.size");
        Value *Recorded =
            B.CreateTrunc(B.CreateLoad(B.getInt64Ty(), Team), RT.I32);
        auto *Mismatch = BasicBlock::Create(Ctx, "team.mismatch", &Thread);
        auto *Run = BasicBlock::Create(Ctx, "run", &Thread);
        B.CreateCondBr(B.CreateICmpNE(Size, Recorded), Mismatch, Run);
        B.SetInsertPoint(Mismatch);
        // Barriers and critical sections pair up only in a team of the
        // primal's size: a smaller one would give a wrong gradient.
        B.CreateCall(
            runTimeStop(M),
            {B.CreateGlobalStringPtr(
                "slope: the reverse sweep of an OpenMP parallel "
                "region got a team of another size than the region's")});
        B.CreateUnreachable();
        B.SetInsertPoint(Run);
        Value *Record =
            B.CreateLoad(B.getPtrTy(), recordAddress(B, Team, Index), "record");
        B.CreateCall(&Reverse, forwardedArguments(Thread, Record));
        B.CreateRetVoid();
      });

  auto *AugmentedTeam =
      Function::Create(Augmented.getFunctionType(),
                       GlobalValue::InternalLinkage, AugmentedName, M);
  {
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", AugmentedTeam));
    SmallVector<Value *, 8> Args;
    for (Argument &A : drop_begin(AugmentedTeam->args(), 2))
      Args.push_back(&A);
    emitFork(B, Region, *AugmentedThread, Args);
    if (AugmentedTeam->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(PoisonValue::get(AugmentedTeam->getReturnType()));
  }
  auto *ReverseTeam = Function::Create(
      Reverse.getFunctionType(), GlobalValue::InternalLinkage, ReverseName, M);
  {
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", ReverseTeam));
    Value *Team = ReverseTeam->getArg(ReverseTeam->arg_size() - 1);
    Value *Loc = regionLocation(Region);
    Value *Size = B.CreateTrunc(B.CreateLoad(B.getInt64Ty(), Team), RT.I32);
    B.CreateCall(RT.pushTeamSize(),
                 {Loc, B.CreateCall(RT.threadNumber(), {Loc}), Size});
    SmallVector<Value *, 8> Args;
    for (Argument &A : drop_begin(ReverseTeam->args(), 2))
      Args.push_back(&A);
    emitFork(B, Region, *ReverseThread, Args);
    B.CreateCall(M.getOrInsertFunction("free", B.getVoidTy(), B.getPtrTy()),
                 {Team});
    // The region's body takes pointers only: no adjoints to return.
    if (ReverseTeam->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Constant::getNullValue(ReverseTeam->getReturnType()));
  }
  return SplitDerivative{AugmentedTeam, ReverseTeam};
}

bool isSynchronization(const CallBase &Call) {
  return calls(Call, "__kmpc_barrier") || calls(Call, EnterName) ||
         calls(Call, LeaveName);
}

void emitSynchronizationMirror(const CallBase &Call, IRBuilderBase &B,
                               function_ref<Value *(Value *)> PrimalOf) {
  Runtime RT(*B.GetInsertBlock()->getModule());
  if (calls(Call, "__kmpc_barrier")) {
    Value *Loc = PrimalOf(Call.getArgOperand(0));
    // The reverse sweep may run on other threads than the primal's: ask
    // the runtime for this one's number.
    B.CreateCall(RT.barrier(), {Loc, B.CreateCall(RT.threadNumber(), {Loc})});
    return;
  }
  // The section's end opens its reverse when the ticket's turn comes; its
  // start passes the turn on.
  Value *Turn = PrimalOf(Call.getArgOperand(3));
  if (calls(Call, LeaveName))
    B.CreateCall(RT.waitTurn(), {Turn, PrimalOf(Call.getArgOperand(4))});
  else
    B.CreateCall(RT.passTurn(),
                 {Turn, PrimalOf(const_cast<CallBase *>(&Call))});
}

} // namespace slope
