//===- FloatRetyping.cpp - Floating-point data moved as integers ----------===//
#include "FloatRetyping.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace slope {
namespace {

class Retyping {
public:
  bool run(Function &F);

private:
  /// The one floating-point type all of \p I's users bit cast it to.
  static Type *commonFloatCast(Instruction &I);
  /// \p IntValue's bits as a vector of \p Element, where that costs no
  /// instruction but a load of the other type (null otherwise).
  Value *asFloats(Value *IntValue, Type *Element);
  /// A load of \p Ty at \p Load's address, in its place (one per type).
  LoadInst *retypedLoad(LoadInst &Load, Type *Ty);
  /// shuffle(a, b) cast to floating point, where the mask moves whole
  /// floating-point elements: the shuffle of a's and b's floats.
  bool retypeShuffle(ShuffleVectorInst &Shuffle);
  static void replaceCasts(Instruction &I, Value *Typed);

  DenseMap<std::pair<LoadInst *, Type *>, LoadInst *> Retyped;
};

Type *Retyping::commonFloatCast(Instruction &I) {
  Type *FloatType = nullptr;
  for (User *U : I.users()) {
    auto *Cast = dyn_cast<BitCastInst>(U);
    if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
        (FloatType && FloatType != Cast->getType()))
      return nullptr;
    FloatType = Cast->getType();
  }
  return FloatType;
}

LoadInst *Retyping::retypedLoad(LoadInst &Load, Type *Ty) {
  LoadInst *&Typed = Retyped[{&Load, Ty}];
  if (!Typed) {
    IRBuilder<> B(&Load);
    Typed = B.CreateAlignedLoad(Ty, Load.getPointerOperand(), Load.getAlign(),
                                Load.isVolatile(), Load.getName());
    // The same access: alias metadata and location carry over (not !range
    // and the like, which describe integers).
    Typed->setAAMetadata(Load.getAAMetadata());
    Typed->setDebugLoc(Load.getDebugLoc());
  }
  return Typed;
}

Value *Retyping::asFloats(Value *IntValue, Type *Element) {
  unsigned Bits = IntValue->getType()->getPrimitiveSizeInBits();
  unsigned ElementBits = Element->getPrimitiveSizeInBits();
  if (!ElementBits || Bits % ElementBits)
    return nullptr;
  Type *Ty = FixedVectorType::get(Element, Bits / ElementBits);
  if (isa<PoisonValue>(IntValue) || isa<UndefValue>(IntValue))
    return PoisonValue::get(Ty);
  if (auto *Cast = dyn_cast<BitCastInst>(IntValue);
      Cast && Cast->getSrcTy() == Ty)
    return Cast->getOperand(0);
  if (auto *Load = dyn_cast<LoadInst>(IntValue); Load && Load->isSimple())
    return retypedLoad(*Load, Ty);
  return nullptr;
}

void Retyping::replaceCasts(Instruction &I, Value *Typed) {
  for (User *U : make_early_inc_range(I.users())) {
    U->replaceAllUsesWith(Typed);
    cast<Instruction>(U)->eraseFromParent();
  }
}

bool Retyping::retypeShuffle(ShuffleVectorInst &Shuffle) {
  auto *Result = dyn_cast_or_null<FixedVectorType>(commonFloatCast(Shuffle));
  auto *IntType = dyn_cast<FixedVectorType>(Shuffle.getType());
  if (!Result || !IntType || Shuffle.use_empty())
    return false;
  unsigned Scale =
      Result->getScalarSizeInBits() / IntType->getScalarSizeInBits();
  SmallVector<int, 8> Wide;
  if (Scale < 2 || !widenShuffleMaskElts(Scale, Shuffle.getShuffleMask(), Wide))
    return false;
  Type *Element = Result->getElementType();
  Value *First = asFloats(Shuffle.getOperand(0), Element);
  Value *Second = asFloats(Shuffle.getOperand(1), Element);
  if (!First || !Second)
    return false;
  IRBuilder<> B(&Shuffle);
  Value *Moved = B.CreateShuffleVector(First, Second, Wide, Shuffle.getName());
  if (auto *MovedI = dyn_cast<Instruction>(Moved))
    MovedI->setDebugLoc(Shuffle.getDebugLoc());
  replaceCasts(Shuffle, Moved);
  Shuffle.eraseFromParent();
  return true;
}

bool Retyping::run(Function &F) {
  bool Changed = false;
  SmallVector<ShuffleVectorInst *, 8> Shuffles;
  for (Instruction &I : instructions(F))
    if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(&I);
        Shuffle && Shuffle->getType()->isIntOrIntVectorTy())
      Shuffles.push_back(Shuffle);
  for (ShuffleVectorInst *Shuffle : Shuffles)
    Changed |= retypeShuffle(*Shuffle);

  SmallVector<LoadInst *, 8> Loads;
  SmallVector<StoreInst *, 8> Stores;
  for (Instruction &I : instructions(F)) {
    if (auto *Load = dyn_cast<LoadInst>(&I);
        Load && Load->isSimple() && Load->getType()->isIntOrIntVectorTy() &&
        !Load->use_empty() && commonFloatCast(*Load))
      Loads.push_back(Load);
    if (auto *Store = dyn_cast<StoreInst>(&I); Store && Store->isSimple())
      if (auto *Cast = dyn_cast<BitCastInst>(Store->getValueOperand());
          Cast && Cast->getSrcTy()->isFPOrFPVectorTy())
        Stores.push_back(Store);
  }
  for (LoadInst *Load : Loads)
    replaceCasts(*Load, retypedLoad(*Load, commonFloatCast(*Load)));
  for (StoreInst *Store : Stores) {
    auto *Cast = cast<BitCastInst>(Store->getValueOperand());
    Store->setOperand(0, Cast->getOperand(0));
    if (Cast->use_empty())
      Cast->eraseFromParent();
  }
  // Integer loads left without users.
  SmallPtrSet<LoadInst *, 8> Unused;
  for (auto &[Key, Typed] : Retyped)
    if (Key.first->use_empty())
      Unused.insert(Key.first);
  for (LoadInst *Load : Unused)
    Load->eraseFromParent();
  return Changed || !Loads.empty() || !Stores.empty();
}

} // namespace

bool retypeFloatData(Function &F) { return Retyping().run(F); }

} // namespace slope
