//===- Activity.cpp -------------------------------------------------------===//
#include "Activity.h"
#include "Allocations.h"
#include "ByteLayout.h"
#include "CallDerivatives.h"
#include "CustomRules.h"
#include "DiffError.h"
#include "KnownInactive.h"
#include "Rules.h"
#include "SharedMemory.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

SmallVector<Use *, 4> differentiableOperands(Instruction &I) {
  SmallVector<Use *, 4> Uses;
  if (auto *Select = dyn_cast<SelectInst>(&I)) {
    Uses.push_back(&Select->getOperandUse(1));
    Uses.push_back(&Select->getOperandUse(2));
  } else if (auto *Call = dyn_cast<CallBase>(&I)) {
    for (Use &Arg : Call->args())
      Uses.push_back(&Arg);
  } else if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I)) {
    // Memory carries derivatives through shadows, not through operands.
  } else {
    for (Use &Op : I.operands())
      Uses.push_back(&Op);
  }
  return Uses;
}

namespace {

bool isScalarFP(const Value *V) { return V->getType()->isFloatingPointTy(); }

/// Why a differentiated pointer cannot go into \p Call (no body, no rule),
/// naming what the user can do for the runtimes Slope knows.
std::string whyNotIntoCall(const CallBase &Call) {
  std::string Why = "a differentiated pointer is passed to a function Slope "
                    "cannot see into";
  const Function *Callee = Call.getCalledFunction();
  StringRef Name = Callee ? Callee->getName() : "";
  if (Name.starts_with("MPI_") || Name.starts_with("PMPI_"))
    Why += "; <slope/mpi.hpp> gives rules to MPI_Send, MPI_Recv, "
           "MPI_Sendrecv, MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall, "
           "MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Gather, MPI_Scatter "
           "and MPI_Allgather: include it, or keep differentiated data out "
           "of this call";
  else if ((Name.starts_with("__kmpc_") || Name.starts_with("omp_")) &&
           Call.getFunction()->getName().contains(".slope."))
    Why += "; it is in Slope's derivative of an OpenMP region, which "
           "cannot be differentiated again yet (second derivatives of "
           "parallel code)";
  else if (Name.starts_with("__kmpc_") || Name.starts_with("omp_"))
    Why += "; this OpenMP construct is not differentiated yet (regions, "
           "worksharing loops, reductions, critical sections, atomic "
           "updates and barriers are)";
  return Why;
}

/// `#pragma omp atomic` updates of a sum (and CUDA's atomicAdd).
bool isAtomicAddition(const AtomicRMWInst &RMW) {
  return RMW.getOperation() == AtomicRMWInst::FAdd ||
         RMW.getOperation() == AtomicRMWInst::FSub;
}

/// Intrinsics that may take a shadowed pointer without touching the data.
bool isHarmlessPointerUse(const CallBase &Call) {
  switch (Call.getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::prefetch:
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memset:
    return true;
  default:
    return isa<DbgInfoIntrinsic>(Call);
  }
}

class Analysis {
public:
  Analysis(Function &F, ArrayRef<ArgActivity> Args, bool ResultIsOutput,
           const TargetLibraryInfo &TLI, const CustomRules *Rules)
      : F(F), Args(Args), ResultIsOutput(ResultIsOutput), TLI(TLI),
        Rules(Rules) {}

  Error run(SmallPtrSetImpl<const Value *> &Active,
            SmallPtrSetImpl<const Value *> &ShadowedOut);

private:
  Error findShadowedPointers();
  Error checkPointerUse(Instruction &User, Use &U);
  Error findVaried();
  Error checkVariedUse(Instruction &I, const Use &U);
  void findUseful();
  Error checkIntegerCopies();
  Error checkFloatsFromIntegers();
  /// An alloca or a call that allocates (not one that reallocates).
  bool isNewAllocation(Value &I) const;
  bool isAllocationToShadow(Value &I);
  void shadow(Value *V) {
    if (Shadowed.insert(V).second)
      Work.push_back(V);
  }

  Function &F;
  ArrayRef<ArgActivity> Args;
  bool ResultIsOutput;
  const TargetLibraryInfo &TLI;
  const CustomRules *Rules;
  SmallPtrSet<const Value *, 32> Shadowed, Varied, Useful;

  bool isInactiveCall(const Instruction &I) const {
    auto *Call = dyn_cast<CallBase>(&I);
    return Call && (isKnownInactiveCall(*Call, TLI) ||
                    (Rules && Call->getCalledFunction() &&
                     Rules->isInactive(Call->getCalledFunction())));
  }
  /// A call Slope differentiates through (a body or a custom rule) that
  /// takes shadowed memory: its result may depend on that memory, and its
  /// floating-point arguments may be stored there.
  bool passesShadowedMemory(const Instruction &I) const {
    auto *Call = dyn_cast<CallBase>(&I);
    return Call && !isInactiveCall(I) &&
           (isDifferentiableCall(*Call) || customRuleOfCall(*Call, Rules)) &&
           any_of(Call->args(),
                  [&](const Use &A) { return Shadowed.contains(A.get()); });
  }
  SmallVector<Value *, 32> Work;

public:
  DenseMap<const StoreInst *, LoadInst *> IntegerCopies;
  SmallVector<GlobalVariable *, 2> SharedRoots;
};

} // namespace

void collectAccesses(Value *Root, SmallVectorImpl<Instruction *> &Out,
                     const Function *In,
                     function_ref<void(Instruction &)> OnAddress) {
  SmallPtrSet<Value *, 16> Seen;
  SmallVector<Value *, 16> Stack{Root};
  while (!Stack.empty()) {
    Value *V = Stack.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I || (In && I->getFunction() != In))
        continue;
      if (isa<GetElementPtrInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I) ||
          isa<AddrSpaceCastInst>(I)) {
        if (OnAddress && !Seen.contains(I))
          OnAddress(*I);
        Stack.push_back(I);
      } else
        Out.push_back(I);
    }
  }
}

namespace {

/// Whether a value of type \p Ty holds a pointer.
bool containsPointer(Type *Ty) {
  if (Ty->isPtrOrPtrVectorTy())
    return true;
  if (auto *Struct = dyn_cast<StructType>(Ty))
    return any_of(Struct->elements(), containsPointer);
  if (auto *Array = dyn_cast<ArrayType>(Ty))
    return containsPointer(Array->getElementType());
  return false;
}

bool Analysis::isNewAllocation(Value &I) const {
  auto *Call = dyn_cast<CallBase>(&I);
  return isa<AllocaInst>(I) || (Call && asAllocation(*Call, TLI));
}

/// Allocations (allocas, malloc, new, GPU shared arrays) get a shadow when
/// they hold floating-point data or pointers, are copied or cleared as
/// bytes, or are passed to a differentiated call.
bool Analysis::isAllocationToShadow(Value &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  auto *Shared = dyn_cast<GlobalVariable>(&I);
  if (!isNewAllocation(I) && !(Shared && isSharedMemory(*Shared)) &&
      !(Call && asReallocation(*Call, TLI)))
    return false;
  SmallVector<Instruction *, 16> Accesses;
  collectAccesses(&I, Accesses, &F);
  for (Instruction *A : Accesses) {
    if (auto *Load = dyn_cast<LoadInst>(A))
      if (Load->getType()->isFPOrFPVectorTy() || Load->getType()->isPointerTy())
        return true;
    if (auto *Store = dyn_cast<StoreInst>(A)) {
      Type *Ty = Store->getValueOperand()->getType();
      if (Ty->isFPOrFPVectorTy() || Ty->isPointerTy())
        return true;
    }
    if (isa<MemIntrinsic>(A))
      return true;
    // A call Slope differentiates through may store floating-point data
    // into it (std::stable_sort's buffer in its recursive merge).
    if (auto *Call = dyn_cast<CallBase>(A))
      if (!isInactiveCall(*Call) && !releasedPointer(*Call, TLI) &&
          (isDifferentiableCall(*Call) || customRuleOfCall(*Call, Rules)))
        return true;
  }
  return false;
}

Error Analysis::checkPointerUse(Instruction &User, Use &U) {
  if (isa<GetElementPtrInst>(User)) {
    if (U.getOperandNo() == 0)
      shadow(&User);
    return Error::success();
  }
  if (isa<PHINode>(User) || isa<SelectInst>(User)) {
    if (isa<SelectInst>(User) && U.getOperandNo() == 0)
      return Error::success();
    shadow(&User);
    // The optimizer may merge allocations that nothing active touches on
    // one path (a malloc hoisted into each arm before one free) with ones
    // that are: those get shadows too, so the merged pointer has one.
    for (Use *Op : differentiableOperands(User))
      if (Value *Base = getUnderlyingObject(Op->get());
          !Shadowed.contains(Base) && isNewAllocation(*Base))
        shadow(Base);
    return Error::success();
  }
  if (isa<AddrSpaceCastInst>(User)) {
    shadow(&User);
    return Error::success();
  }
  if (auto *Load = dyn_cast<LoadInst>(&User)) {
    if (Load->getType()->isPointerTy())
      shadow(Load);
    return Error::success();
  }
  if (auto *Store = dyn_cast<StoreInst>(&User)) {
    if (U.getOperandNo() == 0 && !Shadowed.contains(Store->getPointerOperand()))
      return unsupported(User, "a differentiated pointer is stored where "
                               "Slope cannot track it");
    return Error::success();
  }
  if (isa<ICmpInst>(User) || isa<PtrToIntInst>(User) || isa<ReturnInst>(User))
    return Error::success();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&User)) {
    if (U.getOperandNo() != RMW->getPointerOperandIndex())
      return unsupported(User, "a differentiated pointer is exchanged "
                               "atomically");
    if (!isScalarFP(RMW))
      return Error::success(); // an integer counter: nothing to differentiate
    if (!isAtomicAddition(*RMW))
      return unsupported(User, "an atomic operation on differentiated data "
                               "other than an addition or a subtraction");
    if (!RMW->use_empty())
      return unsupported(User, "the value an atomic update of differentiated "
                               "data read is used");
    return Error::success();
  }
  if (auto *Call = dyn_cast<CallBase>(&User)) {
    // Through the callee's derivative, a pointer it returns would have no
    // shadow: loads through it would look inactive.
    if (isDifferentiableCall(*Call) && !isInactiveCall(*Call) &&
        !customRuleOfCall(*Call, Rules) && !Call->use_empty() &&
        containsPointer(Call->getType()))
      return unsupported(User, "a call Slope cannot inline (recursion, or "
                               "calls nested deeper than its inlining "
                               "budget) returns a pointer that may point "
                               "into differentiated memory; Slope cannot "
                               "give it a shadow yet");
    if (isHarmlessPointerUse(*Call) || isInactiveCall(*Call) ||
        customRuleOfCall(*Call, Rules) || isDifferentiableCall(*Call) ||
        releasedPointer(*Call, TLI) == U.get())
      return Error::success();
    if (auto Realloc = asReallocation(*Call, TLI);
        Realloc && Realloc->first == U.get()) {
      shadow(Call);
      return Error::success();
    }
    return unsupported(User, whyNotIntoCall(*Call));
  }
  return unsupported(User, "a differentiated pointer is used in a way Slope "
                           "does not support yet");
}

Error Analysis::findShadowedPointers() {
  for (Argument &A : F.args())
    if (A.getArgNo() < Args.size() && Args[A.getArgNo()] == ArgActivity::Dup)
      shadow(&A);
  for (Instruction &I : instructions(F))
    if (isAllocationToShadow(I))
      shadow(&I);
  for (GlobalVariable &GV : F.getParent()->globals())
    if (isAllocationToShadow(GV)) {
      shadow(&GV);
      SharedRoots.push_back(&GV);
    }
  // Stores of pointers into memory may be checked before the destination is
  // known to be shadowed: iterate to a fixed point, then check.
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses())
      if (auto *User = dyn_cast<Instruction>(U.getUser());
          User && User->getFunction() == &F)
        if (Error E = checkPointerUse(*User, U)) {
          if (isa<StoreInst>(User)) {
            consumeError(std::move(E));
            continue;
          }
          return E;
        }
  }
  for (const Value *V : Shadowed)
    for (const Use &U : V->uses()) {
      auto *Store = dyn_cast<StoreInst>(U.getUser());
      if (Store && Store->getFunction() == &F && U.getOperandNo() == 0 &&
          !Shadowed.contains(Store->getPointerOperand()))
        return unsupported(*Store, "a differentiated pointer is stored where "
                                   "Slope cannot track it");
    }
  // Phis and selects mixing shadowed and unshadowed pointers.
  for (const Value *V : Shadowed) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !(isa<PHINode>(I) || isa<SelectInst>(I)))
      continue;
    for (Use *Op : differentiableOperands(*const_cast<Instruction *>(I))) {
      Value *In = Op->get();
      if (!Shadowed.contains(In) && !isa<ConstantPointerNull>(In) &&
          !isa<UndefValue>(In))
        return unsupported(*I, "it mixes pointers with and without "
                               "slope::dup shadows");
    }
  }
  return Error::success();
}

/// Derivatives of I with respect to the floating-point operand \p U are
/// known: either I is an operation with a rule or a linear data movement, or
/// its result cannot carry a derivative (comparisons, float-to-int).
Error Analysis::checkVariedUse(Instruction &I, const Use &U) {
  if (I.hasMetadata(InactiveCallMetadata))
    return Error::success();
  switch (I.getOpcode()) {
  case Instruction::FCmp:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::Ret:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::PHI:
  case Instruction::Freeze:
  case Instruction::Select:
    return Error::success();
  case Instruction::AtomicRMW:
    if (Shadowed.contains(cast<AtomicRMWInst>(I).getPointerOperand()) &&
        isAtomicAddition(cast<AtomicRMWInst>(I)))
      return Error::success();
    return unsupported(I, "an active value is added atomically to memory "
                          "Slope does not track (a global, or a pointer not "
                          "passed with slope::dup)");
  case Instruction::Store:
    if (Shadowed.contains(cast<StoreInst>(I).getPointerOperand()))
      return Error::success();
    return unsupported(I, "an active value is stored to memory Slope does "
                          "not track (a global, or a pointer not passed with "
                          "slope::dup)");
  default:
    break;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (!Call->isArgOperand(&U))
      return unsupported(I, "an active value is called");
    if (Call->isInlineAsm())
      return unsupported(I, "Slope cannot see what inline assembly computes");
    if (isa<DbgInfoIntrinsic>(Call) || findRule(I) || isInactiveCall(I) ||
        customRuleOfCall(*Call, Rules))
      return Error::success();
    if (auto *Intr = dyn_cast<IntrinsicInst>(Call))
      if (Intr->getType()->isIntegerTy())
        return Error::success(); // lround, is.fpclass, ...: no derivative
    if (isDifferentiableCall(*Call))
      return Error::success(); // through the callee's derivative
    if (!Call->getCalledFunction())
      return unsupported(I, "the function called through this pointer is "
                            "not known at compile time");
    if (isa<InvokeInst>(Call) && !Call->getCalledFunction()->isDeclaration())
      return unsupported(I, "a call Slope cannot inline (recursion) that "
                            "may throw into a handler of the function is "
                            "not supported yet");
    return unsupported(I, "no derivative rule for this function and its "
                          "definition is not available");
  }
  if (findRule(I) && isScalarFP(&I))
    return Error::success();
  // Bit manipulation, or clang handing an OpenMP region a firstprivate
  // double as the integer of its bits: derivatives do not follow integers.
  if (isa<BitCastInst>(I) && I.getType()->isIntegerTy())
    return unsupported(I, "this instruction does not propagate derivatives: "
                          "it reinterprets a differentiated floating-point "
                          "value as an integer (bit manipulation, or an "
                          "OpenMP firstprivate copy, which clang passes as "
                          "an integer: share that variable instead)");
  return unsupported(I, "this instruction does not propagate derivatives");
}

Error Analysis::findVaried() {
  for (Argument &A : F.args())
    if (A.getArgNo() < Args.size() &&
        Args[A.getArgNo()] == ArgActivity::Active && isScalarFP(&A) &&
        Varied.insert(&A).second)
      Work.push_back(&A);
  for (Instruction &I : instructions(F)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load || !Shadowed.contains(Load->getPointerOperand()))
      continue;
    if (Load->getType()->isVectorTy() &&
        Load->getType()->getScalarType()->isFloatingPointTy())
      return unsupported(I, "vector loads of differentiated data are not "
                            "supported yet");
    if (isScalarFP(Load) && Varied.insert(Load).second)
      Work.push_back(Load);
  }
  for (Instruction &I : instructions(F))
    if (isScalarFP(&I) && passesShadowedMemory(I) && Varied.insert(&I).second)
      Work.push_back(&I);
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      if (!User)
        continue;
      if (isa<SelectInst>(User) && U.getOperandNo() == 0)
        continue;
      if (Error E = checkVariedUse(*User, U))
        return E;
      if (isScalarFP(User) && !isInactiveCall(*User) &&
          Varied.insert(User).second)
        Work.push_back(User);
    }
  }
  return Error::success();
}

void Analysis::findUseful() {
  for (Instruction &I : instructions(F)) {
    Value *Sink = nullptr;
    if (auto *Ret = dyn_cast<ReturnInst>(&I); Ret && ResultIsOutput)
      Sink = Ret->getReturnValue();
    if (auto *Store = dyn_cast<StoreInst>(&I))
      if (Shadowed.contains(Store->getPointerOperand()))
        Sink = Store->getValueOperand();
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      if (Shadowed.contains(RMW->getPointerOperand()))
        Sink = RMW->getValOperand();
    if (Sink && isScalarFP(Sink) && Useful.insert(Sink).second)
      Work.push_back(Sink);
    if (passesShadowedMemory(I))
      for (Use &Arg : cast<CallBase>(I).args())
        if (isScalarFP(Arg.get()) && Useful.insert(Arg.get()).second)
          Work.push_back(Arg.get());
  }
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !isScalarFP(I))
      continue;
    for (Use *Op : differentiableOperands(*I))
      if (isScalarFP(Op->get()) && Useful.insert(Op->get()).second)
        Work.push_back(Op->get());
  }
}

/// Whether the bytes \p Store copies from \p Source are, by the records'
/// layout, neither floating-point data nor pointers.
static bool isPlainDataCopy(StoreInst &Store, LoadInst &Source) {
  std::optional<ByteLayout> Layout =
      copiedByteLayout(Store.getPointerOperand(), Source.getPointerOperand(),
                       nullptr, {}, Store.getDataLayout());
  return Layout &&
         Layout->holdsPlainData(
             0,
             Store.getValueOperand()->getType()->getPrimitiveSizeInBits() / 8);
}

/// An integer load and store pair through shadowed pointers copies bytes
/// that may be floating-point data: Slope cannot tell, so it refuses.
Error Analysis::checkIntegerCopies() {
  for (Instruction &I : instructions(F)) {
    auto *Store = dyn_cast<StoreInst>(&I);
    if (!Store || !Shadowed.contains(Store->getPointerOperand()))
      continue;
    Type *Ty = Store->getValueOperand()->getType();
    if (Ty->isVectorTy() && Ty->getScalarType()->isFloatingPointTy())
      return unsupported(I, "vector stores of differentiated data are not "
                            "supported yet");
    if (!Ty->isIntOrIntVectorTy() || Ty->getScalarSizeInBits() < 16)
      continue;
    auto *Source =
        dyn_cast<LoadInst>(Store->getValueOperand()->stripPointerCasts());
    if (!Source || !Shadowed.contains(Source->getPointerOperand()))
      continue;
    // A copy whose load and store are adjacent in one block (nothing writes
    // memory in between) is a move of bytes the emitters can mirror; the
    // reverse sweep still needs their floating-point type.
    bool Adjacent =
        Source->getParent() == Store->getParent() && !Ty->isVectorTy() &&
        Source->comesBefore(Store) &&
        std::none_of(std::next(Source->getIterator()), Store->getIterator(),
                     [](Instruction &J) { return J.mayWriteToMemory(); });
    // Apart, the copied value would need a shadow of its own -- unless the
    // bytes are an integer field of a record (a sort's key held while
    // others move).
    if (!Adjacent && isPlainDataCopy(*Store, *Source))
      continue;
    if (!Adjacent)
      return unsupported(I, "it copies memory as integers, and Slope cannot "
                            "tell whether the bytes are floating-point data "
                            "(copy the values as double or float)");
    IntegerCopies[Store] = Source;
  }
  return Error::success();
}

/// Floating-point values bit cast from integers that were loaded from
/// differentiated memory would carry no derivative. FloatRetyping.h turns
/// the patterns it knows into floating-point loads and shuffles; any other
/// is an error, not a silent zero.
Error Analysis::checkFloatsFromIntegers() {
  for (Instruction &I : instructions(F)) {
    auto *Cast = dyn_cast<BitCastInst>(&I);
    if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
        !Cast->getSrcTy()->isIntOrIntVectorTy())
      continue;
    SmallVector<Value *, 8> Pending{Cast->getOperand(0)};
    SmallPtrSet<Value *, 16> Seen;
    while (!Pending.empty() && Seen.size() < 256) {
      auto *J = dyn_cast<Instruction>(Pending.pop_back_val());
      if (!J || !Seen.insert(J).second)
        continue;
      if (auto *Load = dyn_cast<LoadInst>(J)) {
        if (Shadowed.contains(Load->getPointerOperand()))
          return unsupported(I, "floating-point data is moved as integers "
                                "here (bits loaded from differentiated "
                                "memory as an integer), and derivatives do "
                                "not pass through integer operations");
        continue;
      }
      bool MovesBits = isa<CastInst>(J) || isa<InsertElementInst>(J) ||
                       isa<ExtractElementInst>(J) ||
                       isa<ShuffleVectorInst>(J) || isa<PHINode>(J) ||
                       isa<SelectInst>(J) || isa<FreezeInst>(J) ||
                       isa<BinaryOperator>(J);
      if (MovesBits)
        for (Value *Op : J->operands())
          if (Op->getType()->isIntOrIntVectorTy())
            Pending.push_back(Op);
    }
  }
  return Error::success();
}

Error Analysis::run(SmallPtrSetImpl<const Value *> &Active,
                    SmallPtrSetImpl<const Value *> &ShadowedOut) {
  if (Error E = findShadowedPointers())
    return E;
  if (Error E = checkIntegerCopies())
    return E;
  if (Error E = checkFloatsFromIntegers())
    return E;
  if (Error E = findVaried())
    return E;
  findUseful();
  for (const Value *V : Varied)
    if (Useful.contains(V))
      Active.insert(V);
  ShadowedOut.insert(Shadowed.begin(), Shadowed.end());
  return Error::success();
}

} // namespace

Expected<ActivityInfo> ActivityInfo::analyze(Function &F,
                                             ArrayRef<ArgActivity> Args,
                                             bool ResultIsOutput,
                                             const TargetLibraryInfo &TLI,
                                             const CustomRules *Rules) {
  ActivityInfo Info;
  Analysis A(F, Args, ResultIsOutput, TLI, Rules);
  if (Error E = A.run(Info.Active, Info.Shadowed))
    return std::move(E);
  Info.IntegerCopies = std::move(A.IntegerCopies);
  Info.SharedArrays = std::move(A.SharedRoots);
  return Info;
}

} // namespace slope
