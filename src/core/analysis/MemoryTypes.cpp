//===- MemoryTypes.cpp ----------------------------------------------------===//
#include "MemoryTypes.h"
#include "Activity.h"
#include "DiffError.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

bool isIntegerCopy(const Instruction &I) {
  auto IsCopiedLoad = [](const Value *V) {
    const auto *Load = dyn_cast<LoadInst>(V);
    return Load && Load->getType()->isIntegerTy() && !Load->user_empty() &&
           all_of(Load->users(), [Load](const User *U) {
             const auto *Store = dyn_cast<StoreInst>(U);
             return Store && Store->getValueOperand() == Load;
           });
  };
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return IsCopiedLoad(Store->getValueOperand());
  return IsCopiedLoad(&I);
}

/// The one floating-point type \p Ty is made of (through arrays and
/// structs, as a local `Point p[4]` is at -O0), or null.
static Type *uniformFloatingType(Type *Ty) {
  if (Ty->isFloatingPointTy())
    return Ty;
  if (auto *Array = dyn_cast<ArrayType>(Ty))
    return uniformFloatingType(Array->getElementType());
  auto *Struct = dyn_cast<StructType>(Ty);
  if (!Struct || Struct->getNumElements() == 0)
    return nullptr;
  Type *Common = nullptr;
  for (Type *Field : Struct->elements()) {
    Type *Element = uniformFloatingType(Field);
    if (!Element || (Common && Common != Element))
      return nullptr;
    Common = Element;
  }
  return Common;
}

/// Whether \p Pointer may point into \p Object (through phis and selects).
static bool isAddressIn(const Value *Pointer, const Value *Object) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return is_contained(Objects, Object);
}

Type *soleElementType(ArrayRef<Value *> Pointers,
                      ArrayRef<Type *> ArgElementTypes) {
  Type *Element = nullptr;
  auto Accept = [&Element](Type *Ty) {
    if (!Ty->isFloatingPointTy() || (Element && Element != Ty))
      return false;
    Element = Ty;
    return true;
  };
  // Through phis and selects too: a pointer a loop advances (a merge
  // step's cursor) has the objects it starts from.
  SmallVector<const Value *, 8> Objects;
  for (Value *Pointer : Pointers)
    getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  SmallPtrSet<const Value *, 8> Seen;
  for (const Value *Found : Objects) {
    if (!Seen.insert(Found).second)
      continue;
    // Null (one incoming value of a cursor's phi) points to nothing.
    if (isa<Constant>(Found) && !isa<GlobalValue>(Found))
      continue;
    Value *Object = const_cast<Value *>(Found);
    // A parameter's declared pointee type is authoritative.
    if (auto *Arg = dyn_cast<Argument>(Object))
      if (Arg->getArgNo() < ArgElementTypes.size())
        if (Type *Known = ArgElementTypes[Arg->getArgNo()]) {
          if (!Accept(Known))
            return nullptr;
          continue;
        }
    SmallVector<Instruction *, 16> Accesses;
    collectAccesses(Object, Accesses);
    for (Instruction *A : Accesses) {
      // Integer copies (a memcpy of one element, specialized at -O2, is a
      // load and a store of i64) move bytes of whatever type: they do not
      // vote.
      if (isIntegerCopy(*A))
        continue;
      // Storing the pointer itself (a std::vector keeping its buffer) is
      // not an access of the memory it points to, as passing it to a call
      // is not.
      if (auto *Store = dyn_cast<StoreInst>(A))
        if (!isAddressIn(Store->getPointerOperand(), Object))
          continue;
      Type *Ty = nullptr;
      if (auto *Load = dyn_cast<LoadInst>(A))
        Ty = Load->getType();
      else if (auto *Store = dyn_cast<StoreInst>(A))
        Ty = Store->getValueOperand()->getType();
      if (Ty && !Accept(Ty))
        return nullptr;
    }
    if (auto *Alloca = dyn_cast<AllocaInst>(Object)) {
      Type *Allocated = uniformFloatingType(Alloca->getAllocatedType());
      if (!Allocated || !Accept(Allocated))
        return nullptr;
    }
  }
  return Element;
}

bool holdsPointersOnly(ArrayRef<Value *> Pointers,
                       function_ref<bool(const CallBase &)> IsRelease) {
  SmallVector<const Value *, 8> Objects;
  for (Value *Pointer : Pointers)
    getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  bool SawPointer = false;
  SmallPtrSet<const Value *, 8> Seen;
  for (const Value *Found : Objects) {
    if (!Seen.insert(Found).second ||
        (isa<Constant>(Found) && !isa<GlobalValue>(Found)))
      continue;
    if (isa<Argument>(Found) || isa<GlobalValue>(Found))
      return false; // accessed elsewhere too
    Value *Object = const_cast<Value *>(Found);
    SmallVector<Instruction *, 16> Accesses;
    collectAccesses(Object, Accesses);
    for (Instruction *A : Accesses) {
      if (isIntegerCopy(*A) || isa<MemSetInst>(A))
        continue;
      if (auto *Store = dyn_cast<StoreInst>(A)) {
        if (!isAddressIn(Store->getPointerOperand(), Object))
          continue; // the address itself kept somewhere
        if (!Store->getValueOperand()->getType()->isPointerTy())
          return false;
        SawPointer = true;
      } else if (auto *Load = dyn_cast<LoadInst>(A)) {
        if (!Load->getType()->isPointerTy())
          return false;
        SawPointer = true;
      } else if (auto *Call = dyn_cast<CallBase>(A)) {
        if ((isa<MemTransferInst>(Call) || !Call->onlyReadsMemory()) &&
            !Call->isLifetimeStartOrEnd() && !IsRelease(*Call))
          return false;
      }
    }
  }
  return SawPointer;
}

Error checkIntegerStore(StoreInst &Store, ArrayRef<Type *> ArgElementTypes) {
  Type *Ty = Store.getValueOperand()->getType();
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() < 16 ||
      !soleElementType({Store.getPointerOperand()}, ArgElementTypes))
    return Error::success();
  return unsupported(Store, "it writes integer bits into floating-point "
                            "data, which has no derivative Slope can follow");
}

} // namespace slope
