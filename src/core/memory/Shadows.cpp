//===- Shadows.cpp --------------------------------------------------------===//
#include "Shadows.h"
#include "Activity.h"
#include "Allocations.h"
#include "DiffError.h"
#include "HeapShadows.h"
#include "MemoryTypes.h"
#include "RunTimeStops.h"
#include "SharedMemory.h"
#include "SplitDerivative.h"
#include "Tape.h"
#include "Target.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

Value *ShadowMap::get(Value *Pointer) const {
  if (Value *S = Shadows.lookup(Pointer))
    return S;
  // Null and undefined pointers have no memory to mirror.
  return ConstantPointerNull::get(cast<PointerType>(Pointer->getType()));
}

bool ShadowMap::hasHeapShadow(Value *Pointer,
                              SmallPtrSetImpl<Value *> &Visiting) const {
  // (undef: a path that never uses the pointer, as a phi of a value
  // computed on one branch only gets from the others)
  if (isa<ConstantPointerNull>(Pointer) || isa<UndefValue>(Pointer))
    return true;
  if (auto *Call = dyn_cast<CallBase>(Pointer))
    return Activity.isShadowed(Call) && !PrimalAllocated.contains(Call) &&
           (asAllocation(*Call, TLI) || asReallocation(*Call, TLI));
  // Freed or reallocated, a pointer is the start of its block: an offset
  // from a heap shadowed one is then zero (a std::vector's end pointer
  // kept beside its start).
  if (auto *GEP = dyn_cast<GetElementPtrInst>(Pointer))
    return hasHeapShadow(GEP->getPointerOperand(), Visiting);
  // A pointer kept in memory this function made (a std::vector's buffer
  // inside a vector of vectors).
  // (Cycles run through memory: holdsHeapShadowedPointers marks objects.)
  if (auto *Load = dyn_cast<LoadInst>(Pointer)) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Load->getPointerOperand(), Objects, /*LI=*/nullptr,
                         /*MaxLookup=*/0);
    return !Objects.empty() && all_of(Objects, [&](const Value *Object) {
      return holdsHeapShadowedPointers(const_cast<Value *>(Object), Visiting);
    });
  }
  if (!isa<PHINode>(Pointer) && !isa<SelectInst>(Pointer))
    return false;
  if (!Visiting.insert(Pointer).second)
    return true; // a cycle through phis adds nothing new
  auto *I = cast<Instruction>(Pointer);
  for (unsigned K = isa<SelectInst>(I) ? 1 : 0; K < I->getNumOperands(); ++K)
    if (!hasHeapShadow(I->getOperand(K), Visiting))
      return false;
  return true;
}

bool ShadowMap::holdsHeapShadowedPointers(
    Value *Object, SmallPtrSetImpl<Value *> &Visiting) const {
  if (isa<ConstantPointerNull>(Object) || isa<UndefValue>(Object))
    return true;
  auto *Call = dyn_cast<CallBase>(Object);
  // Fresh memory: what it holds, this function put there.
  if (!isa<AllocaInst>(Object) && !(Call && asAllocation(*Call, TLI)) &&
      !isa<LoadInst>(Object))
    return false;
  // A pointer loaded from memory: that memory's pointers must qualify too.
  if (isa<LoadInst>(Object) && !hasHeapShadow(Object, Visiting))
    return false;
  // Visiting holds values for hasHeapShadow and memory objects here; a
  // load is both, and only ever inserted as an object.
  if (!Visiting.insert(Object).second)
    return true;
  auto PointsInto = [Object](const Value *Pointer) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
    return is_contained(Objects, Object);
  };
  SmallVector<Instruction *, 16> Accesses;
  collectAccesses(Object, Accesses, &F);
  for (Instruction *A : Accesses) {
    if (auto *Store = dyn_cast<StoreInst>(A)) {
      if (!PointsInto(Store->getPointerOperand()))
        continue; // the pointer itself stored elsewhere
      Value *Stored = Store->getValueOperand();
      if (Stored->getType()->isPointerTy()) {
        if (Activity.isShadowed(Stored) && !hasHeapShadow(Stored, Visiting))
          return false;
      } else if (auto *Copied = dyn_cast<LoadInst>(Stored)) {
        // Bytes moved as integers may be pointers.
        if (!hasHeapShadow(Copied, Visiting))
          return false;
      }
    } else if (auto *Transfer = dyn_cast<MemTransferInst>(A)) {
      if (!PointsInto(Transfer->getRawDest()))
        continue;
      SmallVector<const Value *, 4> Sources;
      getUnderlyingObjects(Transfer->getRawSource(), Sources, nullptr, 0);
      for (const Value *Source : Sources)
        if (!holdsHeapShadowedPointers(const_cast<Value *>(Source), Visiting))
          return false;
    } else if (auto *Other = dyn_cast<CallBase>(A)) {
      // Anything else given the memory may store pointers into it.
      if (!isa<MemSetInst>(Other) && !Other->isLifetimeStartOrEnd() &&
          !releasedPointer(*Other, TLI))
        return false;
    }
  }
  return true;
}

Error ShadowMap::buildTwin(Instruction &I) {
  IRBuilder<> B(I.getParent(), std::next(I.getIterator()));
  std::string Name = (I.getName() + ".shadow").str();
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    SmallVector<Value *, 4> Indices(GEP->indices());
    Shadows[&I] =
        B.CreateGEP(GEP->getSourceElementType(), get(GEP->getPointerOperand()),
                    Indices, Name, GEP->isInBounds());
  } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
    B.SetInsertPoint(I.getParent(), I.getParent()->getFirstNonPHIIt());
    PHINode *Twin = B.CreatePHI(I.getType(), Phi->getNumIncomingValues(), Name);
    Phis.push_back({Phi, Twin});
    Shadows[&I] = Twin;
  } else if (auto *Cast = dyn_cast<AddrSpaceCastInst>(&I)) {
    Shadows[&I] = B.CreateAddrSpaceCast(get(Cast->getPointerOperand()),
                                        I.getType(), Name);
  } else if (auto *Select = dyn_cast<SelectInst>(&I)) {
    Shadows[&I] =
        B.CreateSelect(Select->getCondition(), get(Select->getTrueValue()),
                       get(Select->getFalseValue()), Name);
  } else if (auto *Load = dyn_cast<LoadInst>(&I)) {
    // The shadow holds a pointer where the primal does: the same tag.
    auto *Twin = B.CreateAlignedLoad(
        I.getType(), get(Load->getPointerOperand()), Load->getAlign(), Name);
    Twin->copyMetadata(*Load, {LLVMContext::MD_tbaa});
    Shadows[&I] = Twin;
  } else if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
    if (!Alloca->isStaticAlloca())
      return unsupported(I, "variable-sized or loop-local stack arrays of "
                            "differentiated data are not supported yet");
    AllocaInst *Twin = B.CreateAlloca(Alloca->getAllocatedType(),
                                      Alloca->getArraySize(), Name);
    Twin->setAlignment(Alloca->getAlign());
    const DataLayout &DL = F.getDataLayout();
    std::optional<TypeSize> Bytes = Alloca->getAllocationSize(DL);
    B.CreateMemSet(Twin, B.getInt8(0), Bytes->getFixedValue(),
                   Alloca->getAlign());
    Shadows[&I] = Twin;
  } else if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (isa<InvokeInst>(Call))
      return unsupported(I, "allocations that may throw inside exception "
                            "handling code are not supported yet");
    Value *Twin;
    if (auto Realloc = asReallocation(*Call, TLI)) {
      SmallPtrSet<Value *, 8> Visiting;
      if (!hasHeapShadow(Realloc->first, Visiting))
        return unsupported(I, "only memory allocated inside the "
                              "differentiated function can be reallocated");
      // A tape's entries are written before they are read: in forward
      // mode its growing shadow need not be zeroed (megabytes per call).
      bool Forward = Mode == DiffMode::Forward;
      Twin = reallocateHeapShadow(
          B, get(Realloc->first), Realloc->second, /*ReleaseOld=*/Forward,
          /*Zeroed=*/!(Forward && Call->hasMetadata(TapeGrowthMetadata)));
      Reallocations[&I] = Realloc->first;
    } else if (std::optional<Allocation> Alloc = asAllocation(*Call, TLI);
               Alloc && PrimalAllocated.contains(Call)) {
      // The same call again, zeroed: the caller's deallocator can take it.
      Twin = B.Insert(Call->clone());
      if (!Alloc->Zeroed)
        B.CreateMemSet(Twin, B.getInt8(0), Alloc->Size, MaybeAlign());
      Twin->setName(Name);
      Shadows[&I] = Twin;
      PrimalAllocatorShadows[&I] = Twin;
      return Error::success();
    } else if (Alloc) {
      Value *Bytes = Alloc->Size ? Alloc->Size
                                 : B.CreateMul(Call->getArgOperand(0),
                                               Call->getArgOperand(1));
      Twin = allocateHeapShadow(B, Bytes, Alloc->Alignment,
                                /*Zeroed=*/
                                !(Mode == DiffMode::Forward &&
                                  Call->hasMetadata(TapeGrowthMetadata)));
    } else {
      return unsupported(I, "Slope cannot give this pointer a shadow");
    }
    Twin->setName(Name);
    Shadows[&I] = Twin;
    HeapShadows[&I] = Twin;
  } else {
    return unsupported(I, "Slope cannot give this pointer a shadow");
  }
  return Error::success();
}

void ShadowMap::mirrorPointerStore(StoreInst &Store) {
  // A pointer without a shadow is stored as null in the shadow memory: a
  // later access through it faults instead of corrupting primal data.
  Value *V = Store.getValueOperand();
  Value *Twin = Activity.isShadowed(V)
                    ? get(V)
                    : ConstantPointerNull::get(cast<PointerType>(V->getType()));
  IRBuilder<> B(Store.getParent(), std::next(Store.getIterator()));
  Value *ShadowAddress = get(Store.getPointerOperand());
  if (Mode == DiffMode::Reverse && isCallerMemory(Store.getPointerOperand(), 0))
    OverwrittenShadowPointers[&Store] = B.CreateAlignedLoad(
        V->getType(), ShadowAddress, Store.getAlign(), "shadow.overwritten");
  B.CreateAlignedStore(Twin, ShadowAddress, Store.getAlign())
      ->copyMetadata(Store, {LLVMContext::MD_tbaa});
  // A heap shadow of Slope's allocator stored where the caller sees it
  // (a reallocation's, or an allocation's whose way there findPrimalAllocated
  // could not follow, through local memory): the caller would
  // free it wrongly. Stop there with a message rather than corrupt the
  // heap.
  SmallPtrSet<Value *, 8> Visiting;
  if (Activity.isShadowed(V) && hasHeapShadow(V, Visiting) &&
      !isa<ConstantPointerNull>(V) &&
      isCallerMemory(Store.getPointerOperand(), 0) &&
      targetFacts(*F.getParent()).ReportsAtRunTime) {
    IRBuilder<> Before(&Store);
    Before.CreateCall(
        runTimeStop(*F.getParent()),
        Before.CreateGlobalStringPtr(
            "slope: " + llvm::demangle(F.getName().split(".slope").first) +
                ": memory allocated in the differentiated function "
                "is stored into memory passed in, but Slope could not "
                "follow it there (it was reallocated, or kept in local "
                "memory on the way), so its shadow is not one the caller "
                "can free. Allocate it with malloc or new and store it "
                "directly.",
            "slope.escape.message"));
  }
}

bool ShadowMap::isCallerMemory(const Value *Pointer, unsigned Depth) const {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Pointer, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return any_of(Objects, [&](const Value *Object) {
    if (isa<Argument>(Object) || isa<GlobalValue>(Object))
      return true;
    // A pointer read from memory: the caller's if that memory is.
    if (const auto *Load = dyn_cast<LoadInst>(Object))
      return Depth > 4 || isCallerMemory(Load->getPointerOperand(), Depth + 1);
    return false;
  });
}

void ShadowMap::mirrorRelease(CallBase &Call, Value *Released) {
  // Forward mode frees a heap shadow with its primal; reverse mode keeps it
  // for the reverse sweep, which frees it where the allocation is reversed.
  if (!Activity.isShadowed(Released))
    return;
  if (Mode != DiffMode::Forward) {
    checkNoSeedsReleased(Call, Released);
    return;
  }
  SmallPtrSet<Value *, 8> Visiting;
  IRBuilder<> B(Call.getParent(), std::next(Call.getIterator()));
  // Memory slope.shadow.free releases came from slope.shadow.alloc, whose
  // twins are heap shadows too (a derivative differentiated again).
  if (hasHeapShadow(Released, Visiting) ||
      isSlopeHeapShadowCall(*Call.getCalledFunction()))
    freeHeapShadow(B, get(Released));
  else
    releaseLikePrimal(Call, Released);
}

void ShadowMap::checkNoSeedsReleased(CallBase &Call, Value *Released) {
  // The caller's storage of a container that grows is given up: seeds the
  // caller put there would apply to the values as they left it, not to
  // the container's final elements. Stop rather than mislead.
  Value *Bytes = releasedSize(Call, TLI);
  // (Memory of pointers only has no seeds: its shadow holds pointers.)
  if (!Bytes || !originsOf(Released).CallerMemory ||
      holdsPointersOnly({Released},
                        [&](const CallBase &C) { return isRelease(C, TLI); }) ||
      !targetFacts(*F.getParent()).ReportsAtRunTime)
    return;
  IRBuilder<> B(&Call);
  emitZeroCheck(
      B, get(Released), Bytes,
      B.CreateGlobalStringPtr(
          "slope: " + llvm::demangle(F.getName().split(".slope").first) +
              ": a container passed in grows into new storage, and its "
              "shadow holds seeds: in reverse mode they would apply to its "
              "elements as they were moved, not to its final ones. Pass it "
              "with zero seeds (its gradient comes back in the shadow), or "
              "size it before the call.",
          "slope.seeds.message"));
}

void ShadowMap::releaseLikePrimal(CallBase &Call, Value *Released) {
  Origins From = originsOf(Released);
  if (From.Other || (!From.CallerMemory && From.Allocations.empty()) ||
      !all_of(From.Allocations,
              [&](CallBase *A) { return PrimalAllocated.contains(A); }))
    return; // kept (a leak at worst, never a wrong free)
  std::optional<Release> How = unsizedRelease(Call, TLI);
  if (!How)
    return;
  // Unsized: the shadow of a caller's buffer may be larger than the
  // buffer (a container reserved for it).
  IRBuilder<> B(Call.getParent(), std::next(Call.getIterator()));
  emitRelease(B, *How, get(Released));
}

void ShadowMap::collectOrigins(Value *Pointer, Origins &Out,
                               SmallPtrSetImpl<Value *> &Visited) const {
  if (isa<ConstantPointerNull>(Pointer) || isa<UndefValue>(Pointer) ||
      !Visited.insert(Pointer).second)
    return;
  if (auto *Call = dyn_cast<CallBase>(Pointer)) {
    if (asAllocation(*Call, TLI))
      Out.Allocations.insert(Call);
    else
      Out.Other = true; // reallocations included: their shadows are Slope's
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(Pointer)) {
    collectOrigins(GEP->getPointerOperand(), Out, Visited);
  } else if (auto *Cast = dyn_cast<CastInst>(Pointer)) {
    collectOrigins(Cast->getOperand(0), Out, Visited);
  } else if (auto *Select = dyn_cast<SelectInst>(Pointer)) {
    collectOrigins(Select->getTrueValue(), Out, Visited);
    collectOrigins(Select->getFalseValue(), Out, Visited);
  } else if (auto *Phi = dyn_cast<PHINode>(Pointer)) {
    for (Value *In : Phi->incoming_values())
      collectOrigins(In, Out, Visited);
  } else if (auto *Load = dyn_cast<LoadInst>(Pointer)) {
    (isCallerMemory(Load->getPointerOperand(), 0) ? Out.CallerMemory
                                                  : Out.Other) = true;
  } else if (auto *Param = dyn_cast<Argument>(Pointer);
             Param && Mode == DiffMode::Forward && isHandedOverRecord(*Param)) {
    // A split derivative's record, which the caller's forward derivative
    // allocated (and its shadow) the primal's way: released here, as the
    // caller's memory is.
    Out.CallerMemory = true;
  } else {
    Out.Other = true;
  }
}

ShadowMap::Origins ShadowMap::originsOf(Value *Pointer) const {
  Origins Out;
  SmallPtrSet<Value *, 16> Visited;
  collectOrigins(Pointer, Out, Visited);
  return Out;
}

void ShadowMap::findPrimalAllocated() {
  auto Take = [&](const Origins &From) {
    bool Changed = false;
    for (CallBase *A : From.Allocations)
      Changed |= Activity.isShadowed(A) && PrimalAllocated.insert(A).second;
    return Changed;
  };
  SmallVector<Value *, 8> Released;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *Store = dyn_cast<StoreInst>(&I)) {
        Value *V = Store->getValueOperand();
        if (V->getType()->isPointerTy() && Activity.isShadowed(V) &&
            Activity.isShadowed(Store->getPointerOperand()) &&
            isCallerMemory(Store->getPointerOperand(), 0))
          Take(originsOf(V));
      } else if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (Value *P = releasedPointer(*Call, TLI); P && Activity.isShadowed(P))
          Released.push_back(P);
      }
    }
  // A release that may see the caller's memory or a primal-allocated
  // shadow releases the primal's way: every allocation it may see must be
  // primal-allocated too.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Value *P : Released) {
      Origins From = originsOf(P);
      if (From.CallerMemory || any_of(From.Allocations, [&](CallBase *A) {
            return PrimalAllocated.contains(A);
          }))
        Changed |= Take(From);
    }
  }
}

Error ShadowMap::build() {
  SmallVector<GlobalVariable *, 2> SharedTwins;
  for (GlobalVariable *Shared : Activity.sharedArrays()) {
    SharedTwins.push_back(sharedShadow(*Shared));
    Shadows[Shared] = SharedTwins.back();
  }
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  clearSharedShadows(Entry, SharedTwins);
  findPrimalAllocated();
  ReversePostOrderTraversal<Function *> RPO(&F);
  SmallVector<Instruction *, 64> Primal;
  for (BasicBlock *BB : RPO)
    for (Instruction &I : *BB)
      Primal.push_back(&I);
  for (Instruction *I : Primal)
    if (Activity.isShadowed(I))
      if (Error E = buildTwin(*I))
        return E;
  for (auto [Phi, Twin] : Phis)
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      Twin->addIncoming(get(Phi->getIncomingValue(K)),
                        Phi->getIncomingBlock(K));
  for (Instruction *I : Primal) {
    if (auto *Store = dyn_cast<StoreInst>(I)) {
      if (Store->getValueOperand()->getType()->isPointerTy() &&
          Activity.isShadowed(Store->getPointerOperand()))
        mirrorPointerStore(*Store);
    } else if (auto *Call = dyn_cast<CallBase>(I)) {
      if (Value *Released = releasedPointer(*Call, TLI))
        mirrorRelease(*Call, Released);
    }
  }
  return Error::success();
}

} // namespace slope
