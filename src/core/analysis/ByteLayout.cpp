//===- ByteLayout.cpp -----------------------------------------------------===//
#include "ByteLayout.h"
#include "Activity.h"
#include "MemoryTypes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/KnownBits.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace slope {

std::optional<Type *> ByteLayout::fieldCovering(uint64_t Offset,
                                                uint64_t Size) const {
  for (auto [FieldOffset, Ty] : Floats) {
    uint64_t FieldSize = Ty->getPrimitiveSizeInBits() / 8;
    if (FieldOffset == Offset && FieldSize == Size)
      return Ty;
    if (FieldOffset < Offset + Size && Offset < FieldOffset + FieldSize)
      return std::nullopt;
  }
  return nullptr;
}

bool ByteLayout::holdsPlainData(uint64_t Offset, uint64_t Size) const {
  auto Overlaps = [&](uint64_t At, uint64_t Bytes) {
    return At < Offset + Size && Offset < At + Bytes;
  };
  return none_of(Floats,
                 [&](const auto &Field) {
                   return Overlaps(Field.first,
                                   Field.second->getPrimitiveSizeInBits() / 8);
                 }) &&
         none_of(Pointers, [&](uint64_t At) { return Overlaps(At, 8); });
}

std::string ByteLayout::key() const {
  std::string Key = "s" + std::to_string(Stride);
  for (auto [Offset, Ty] : Floats)
    Key += (Ty->isFloatTy() ? ".f" : ".d") + std::to_string(Offset);
  return Key;
}

namespace {

/// Records beyond this many fields are not worth a helper (and would only
/// come from large fixed arrays).
constexpr size_t MaxFields = 64;

/// Appends the floating-point fields of \p Ty placed at \p Base; false when
/// \p Ty holds data Slope cannot type (long double, scalable vectors).
bool flatten(Type *Ty, uint64_t Base, const DataLayout &DL, ByteLayout &Out) {
  if (Ty->isFloatTy() || Ty->isDoubleTy()) {
    Out.Floats.push_back({Base, Ty});
    return Out.Floats.size() <= MaxFields;
  }
  if (Ty->isPointerTy() && DL.getPointerTypeSize(Ty) == 8) {
    Out.Pointers.push_back(Base);
    return Out.Pointers.size() <= MaxFields;
  }
  if (Ty->isIntegerTy())
    return true;
  if (auto *Struct = dyn_cast<StructType>(Ty)) {
    // A union's IR type is one of its members: its bytes are ambiguous.
    if (!Struct->isSized() ||
        (Struct->hasName() && Struct->getName().starts_with("union.")))
      return false;
    const StructLayout *Layout = DL.getStructLayout(Struct);
    for (unsigned I = 0; I < Struct->getNumElements(); ++I)
      if (!flatten(Struct->getElementType(I),
                   Base + Layout->getElementOffset(I), DL, Out))
        return false;
    return true;
  }
  Type *Element = nullptr;
  uint64_t Count = 0;
  if (auto *Array = dyn_cast<ArrayType>(Ty)) {
    Element = Array->getElementType();
    Count = Array->getNumElements();
  } else if (auto *Vector = dyn_cast<FixedVectorType>(Ty)) {
    Element = Vector->getElementType();
    Count = Vector->getNumElements();
  } else {
    return false;
  }
  uint64_t Size = DL.getTypeAllocSize(Element).getFixedValue();
  for (uint64_t I = 0; I < Count; ++I)
    if (!flatten(Element, Base + I * Size, DL, Out))
      return false;
  return true;
}

/// The scalar type a TBAA access tag names, as a field of a layout: an FP
/// type, ptr for pointers, null for integers, nullopt when unknown (char,
/// which may alias anything, enums, long double).
std::optional<Type *> tbaaFieldType(const MDNode *Tag, LLVMContext &Ctx) {
  if (!Tag || Tag->getNumOperands() < 2)
    return std::nullopt;
  const auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!Access || Access->getNumOperands() < 1)
    return std::nullopt;
  const auto *Name = dyn_cast<MDString>(Access->getOperand(0));
  if (!Name)
    return std::nullopt;
  StringRef N = Name->getString();
  if (N == "double")
    return Type::getDoubleTy(Ctx);
  if (N == "float")
    return Type::getFloatTy(Ctx);
  if (N == "any pointer" || N == "vtable pointer" || N.starts_with("p1 ") ||
      N.starts_with("p2 ") || N.starts_with("p3 "))
    return PointerType::getUnqual(Ctx);
  static const char *const Integers[] = {"bool",    "short",     "int",
                                         "long",    "long long", "__int128",
                                         "wchar_t", "char16_t",  "char32_t"};
  if (is_contained(Integers, N))
    return nullptr;
  return std::nullopt;
}

/// The layout clang's `!tbaa.struct` gives a fixed-size aggregate copy.
std::optional<ByteLayout> tbaaStructLayout(const Instruction &Copy,
                                           uint64_t Length) {
  const MDNode *Fields = Copy.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!Fields || Fields->getNumOperands() % 3 != 0)
    return std::nullopt;
  ByteLayout Layout;
  Layout.Stride = Length;
  for (unsigned I = 0; I < Fields->getNumOperands(); I += 3) {
    auto *Offset = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(I));
    auto *Size = mdconst::dyn_extract<ConstantInt>(Fields->getOperand(I + 1));
    std::optional<Type *> Ty = tbaaFieldType(
        dyn_cast<MDNode>(Fields->getOperand(I + 2)), Copy.getContext());
    if (!Offset || !Size || !Ty)
      return std::nullopt;
    if (!*Ty)
      continue;
    if ((*Ty)->isPointerTy()) {
      if (Size->getZExtValue() != 8)
        return std::nullopt;
      Layout.Pointers.push_back(Offset->getZExtValue());
      continue;
    }
    if ((*Ty)->getPrimitiveSizeInBits() / 8 != Size->getZExtValue() ||
        Offset->getZExtValue() + Size->getZExtValue() > Length)
      return std::nullopt;
    Layout.Floats.push_back({Offset->getZExtValue(), *Ty});
  }
  return Layout;
}

/// A bytes-only alloca: a slice of a record SROA kept, typeless.
bool isUntypedTemporary(const Value *V) {
  const auto *Alloca = dyn_cast<AllocaInst>(V);
  Type *Allocated = Alloca ? Alloca->getAllocatedType() : nullptr;
  if (auto *Bytes = dyn_cast_or_null<ArrayType>(Allocated))
    Allocated = Bytes->getElementType();
  return Allocated && Allocated->isIntegerTy(8);
}

/// Where pointers into the objects fall inside a record of Stride bytes.
/// Objects start records. Loops advance cursors: phis are first assumed
/// unconstrained, then the assumption is checked by a second evaluation.
class RecordPhases {
public:
  RecordPhases(const SmallPtrSetImpl<const Value *> &Objects, uint64_t Stride,
               const DataLayout &DL)
      : Objects(Objects), Stride(Stride), DL(DL) {}

  /// Finds the phases of all \p Pointers; false when the loops' cursors
  /// do not settle on a phase each.
  bool solve(ArrayRef<const Value *> Pointers) {
    // Each round assumes, for a phi met again while in progress (a loop's
    // cursor), what the round before found; the phases are proven once a
    // round finds every phi as assumed.
    for (int Round = 0; Round < 8; ++Round) {
      Memo.clear();
      for (const Value *Pointer : Pointers)
        evaluate(Pointer);
      bool Settled = all_of(Memo, [this](const auto &Entry) {
        return !isa<PHINode>(Entry.first) ||
               Assumed.lookup(Entry.first) == Entry.second;
      });
      if (Settled)
        return true;
      Assumed = Memo;
    }
    return false;
  }

  /// The phase of a pointer given to solve().
  std::optional<uint64_t> of(const Value *Pointer) {
    Phase P = isRecordStart(Pointer) ? known(0) : Memo.lookup(Pointer);
    if (P.K != Phase::Known)
      return std::nullopt;
    return P.Value;
  }

private:
  struct Phase {
    enum Kind { Open, Known, Unknown } K = Open;
    uint64_t Value = 0;
    bool operator==(const Phase &O) const {
      return K == O.K && (K != Known || Value == O.Value);
    }
  };

  static Phase known(uint64_t V) { return {Phase::Known, V}; }
  static Phase meet(Phase A, Phase B) {
    if (A.K == Phase::Open)
      return B;
    if (B.K == Phase::Open || A == B)
      return A;
    return {Phase::Unknown, 0};
  }

  Phase evaluate(const Value *V) {
    // Memory not reached by address arithmetic -- an object, a parameter,
    // an allocation, a pointer loaded from memory -- starts a record, as a
    // C++ pointer to a record type points to one.
    if (isRecordStart(V))
      return known(0);
    // Null or undef (a cursor's start) points to nothing: no constraint.
    if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V))
      return {};
    if (auto It = Memo.find(V); It != Memo.end())
      return It->second;
    // In progress: a loop's phi; take what the round before found.
    Memo[V] = Assumed.lookup(V);
    Phase Result{Phase::Unknown, 0};
    if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
      unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
      MapVector<Value *, APInt> Variable;
      APInt Constant(Bits, 0);
      if (GEP->collectOffset(DL, Bits, Variable, Constant) &&
          all_of(Variable, [this](const auto &Entry) {
            return isMultiple(Entry.first, Entry.second);
          })) {
        Phase Base = evaluate(GEP->getPointerOperand());
        Result = Base;
        if (Base.K == Phase::Known) {
          int64_t Shift = Constant.srem(Stride);
          Result = known((Base.Value + Stride + Shift) % Stride);
        }
      }
    } else if (const auto *Cast = dyn_cast<CastInst>(V)) {
      if (Cast->getSrcTy()->isPointerTy())
        Result = evaluate(Cast->getOperand(0));
    } else if (const auto *Phi = dyn_cast<PHINode>(V)) {
      Phase Met;
      for (const Value *In : Phi->incoming_values())
        Met = meet(Met, evaluate(In));
      Result = Met;
    } else if (const auto *Select = dyn_cast<SelectInst>(V)) {
      Result = meet(evaluate(Select->getTrueValue()),
                    evaluate(Select->getFalseValue()));
    } else if (isUntypedTemporary(V)) {
      // A bytes-only temporary (a slice SROA kept of a record) holds what
      // is copied in or out of it: it takes their phase.
      Phase Met;
      for (const Use &U : V->uses())
        if (const auto *Transfer = dyn_cast<MemTransferInst>(U.getUser()))
          Met = meet(Met,
                     evaluate(U.getOperandNo() == 0 ? Transfer->getRawSource()
                                                    : Transfer->getRawDest()));
      Result = Met.K == Phase::Open ? Phase{Phase::Unknown, 0} : Met;
    }
    Memo[V] = Result;
    return Result;
  }

  bool isRecordStart(const Value *V) const {
    if (isUntypedTemporary(V))
      return false;
    return Objects.contains(V) || isa<Argument>(V) || isa<AllocaInst>(V) ||
           isa<GlobalVariable>(V) || isa<LoadInst>(V) ||
           (isa<CallBase>(V) && !isa<IntrinsicInst>(V));
  }

  /// Whether \p Index * \p Scale is a multiple of the stride: its power
  /// of two by known bits, its odd part by how the index is computed.
  bool isMultiple(const Value *Index, const APInt &Scale) {
    // The distance in bytes between two pointers at the same phase (the
    // length of a range of records).
    const Value *A, *B;
    if (match(Index, m_Sub(m_PtrToInt(m_Value(A)), m_PtrToInt(m_Value(B))))) {
      // Open (a cursor not yet settled) is optimistic; solve() proves it.
      Phase PA = evaluate(A), PB = evaluate(B);
      if (PA.K == Phase::Open || PB.K == Phase::Open ||
          (PA.K == Phase::Known && PA == PB))
        return true;
    }
    uint64_t Odd = Stride >> llvm::countr_zero(Stride);
    unsigned Twos = llvm::countr_zero(Stride);
    if (Scale.countr_zero() < Twos) {
      KnownBits Known = computeKnownBits(Index, DL);
      if (Known.countMinTrailingZeros() + Scale.countr_zero() < Twos)
        return false;
    }
    return Scale.urem(Odd) == 0 || hasFactor(Index, Odd, 0);
  }

  /// Whether \p V is a multiple of the odd \p Factor as computed.
  static bool hasFactor(const Value *V, uint64_t Factor, unsigned Depth) {
    if (Factor == 1)
      return true;
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue().srem(Factor) == 0;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 6)
      return false;
    switch (I->getOpcode()) {
    case Instruction::Mul:
      return hasFactor(I->getOperand(0), Factor, Depth + 1) ||
             hasFactor(I->getOperand(1), Factor, Depth + 1);
    case Instruction::Shl: // times a power of two: the odd factor stays
    case Instruction::SExt:
      return hasFactor(I->getOperand(0), Factor, Depth + 1);
    case Instruction::Add:
    case Instruction::Sub:
      return hasFactor(I->getOperand(0), Factor, Depth + 1) &&
             hasFactor(I->getOperand(1), Factor, Depth + 1);
    default:
      return false;
    }
  }

  const SmallPtrSetImpl<const Value *> &Objects;
  uint64_t Stride;
  const DataLayout &DL;
  DenseMap<const Value *, Phase> Memo, Assumed;
};

/// The record types memory reached from \p Object is indexed or declared
/// with, and its accesses.
struct Evidence {
  SmallVector<Type *, 8> Records;
  SmallVector<Instruction *, 32> Accesses;
};

void collectRecordEvidence(Value *Object, ArrayRef<Type *> ArgElementTypes,
                           Evidence &Found) {
  SmallVectorImpl<Type *> &Records = Found.Records;
  SmallVectorImpl<Instruction *> &Accesses = Found.Accesses;
  if (auto *Alloca = dyn_cast<AllocaInst>(Object))
    if (!isUntypedTemporary(Alloca))
      Records.push_back(Alloca->getAllocatedType());
  if (auto *Global = dyn_cast<GlobalVariable>(Object))
    Records.push_back(Global->getValueType());
  if (auto *Arg = dyn_cast<Argument>(Object))
    if (Arg->getArgNo() < ArgElementTypes.size() &&
        ArgElementTypes[Arg->getArgNo()])
      Records.push_back(ArgElementTypes[Arg->getArgNo()]);
  const Function *In = nullptr;
  if (auto *I = dyn_cast<Instruction>(Object))
    In = I->getFunction();
  else if (auto *Arg = dyn_cast<Argument>(Object))
    In = Arg->getParent();
  SmallPtrSet<const Value *, 16> Addresses{Object};
  SmallVector<Instruction *, 16> Users;
  collectAccesses(Object, Users, In, [&](Instruction &Address) {
    Addresses.insert(&Address);
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&Address))
      if (!GEP->getSourceElementType()->isIntegerTy(8))
        Records.push_back(GEP->getSourceElementType());
  });
  for (Instruction *I : Users) {
    // Storing the pointer itself (a std::vector keeping its buffer) is no
    // access of the memory it points to.
    if (auto *Store = dyn_cast<StoreInst>(I))
      if (!Addresses.contains(Store->getPointerOperand()))
        continue;
    Accesses.push_back(I);
  }
}

/// The type a record is made of: the largest candidate, outer arrays
/// stripped (an array of records repeats the record).
Type *chooseRecord(ArrayRef<Type *> Records, const DataLayout &DL) {
  Type *Best = nullptr;
  uint64_t BestSize = 0;
  for (Type *Ty : Records) {
    while (auto *Array = dyn_cast<ArrayType>(Ty))
      Ty = Array->getElementType();
    if (!Ty->isSized() || DL.getTypeAllocSize(Ty).isScalable())
      continue;
    uint64_t Size = DL.getTypeAllocSize(Ty).getFixedValue();
    if (Size > BestSize) {
      Best = Ty;
      BestSize = Size;
    }
  }
  return Best;
}

/// The layout of one record of \p Ty, its fields sorted.
std::optional<ByteLayout> recordLayout(Type *Ty, const DataLayout &DL) {
  ByteLayout Layout;
  Layout.Stride = DL.getTypeAllocSize(Ty).getFixedValue();
  if (!Layout.Stride || !flatten(Ty, 0, DL, Layout))
    return std::nullopt;
  return Layout;
}

/// Whether an access at \p Phase agrees with \p Layout: floating-point
/// data only in its fields, nothing else overlapping them. Integer copies
/// move bytes of any kind and do not count.
bool agrees(const Instruction &Access, uint64_t Phase, const ByteLayout &Layout,
            const DataLayout &DL) {
  Type *Ty = nullptr;
  if (auto *Load = dyn_cast<LoadInst>(&Access))
    Ty = Load->getType();
  else if (auto *Store = dyn_cast<StoreInst>(&Access))
    Ty = Store->getValueOperand()->getType();
  if (!Ty)
    return true;
  Type *Scalar = Ty->getScalarType();
  uint64_t Size = DL.getTypeStoreSize(Scalar).getFixedValue();
  unsigned Lanes = 1;
  if (auto *Vector = dyn_cast<FixedVectorType>(Ty))
    Lanes = Vector->getNumElements();
  for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
    uint64_t At = (Phase + Lane * Size) % Layout.Stride;
    if (At + Size > Layout.Stride)
      return false;
    std::optional<Type *> Field = Layout.fieldCovering(At, Size);
    if (!Field)
      return false;
    if (Scalar->isFloatingPointTy() ? *Field != Scalar
                                    : (*Field && !isa<LoadInst>(Access)))
      return false;
  }
  return true;
}

/// \p Layout seen from a copy starting \p Phase bytes into a record.
std::optional<ByteLayout> rotate(const ByteLayout &Layout, uint64_t Phase) {
  ByteLayout Rotated;
  Rotated.Stride = Layout.Stride;
  for (auto [Offset, Ty] : Layout.Floats) {
    uint64_t Size = Ty->getPrimitiveSizeInBits() / 8;
    if (Offset < Phase && Phase < Offset + Size)
      return std::nullopt; // the copy starts inside a field
    Rotated.Floats.push_back(
        {(Offset + Layout.Stride - Phase) % Layout.Stride, Ty});
  }
  llvm::sort(Rotated.Floats,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  for (uint64_t Offset : Layout.Pointers) {
    if (Offset < Phase && Phase < Offset + 8)
      return std::nullopt;
    Rotated.Pointers.push_back((Offset + Layout.Stride - Phase) %
                               Layout.Stride);
  }
  return Rotated;
}

} // namespace

ByteLayout
ByteLayout::fromFields(LLVMContext &Ctx, uint64_t Stride,
                       ArrayRef<std::pair<uint64_t, unsigned>> FloatBits,
                       ArrayRef<uint64_t> Pointers) {
  ByteLayout Layout;
  Layout.Stride = Stride;
  for (auto [Offset, Bits] : FloatBits)
    Layout.Floats.push_back(
        {Offset, Bits == 32 ? Type::getFloatTy(Ctx) : Type::getDoubleTy(Ctx)});
  Layout.Pointers.assign(Pointers.begin(), Pointers.end());
  return Layout;
}

static constexpr const char *RecordLayoutKind = "slope.record";
static constexpr const char *AssignsKind = "slope.assigns";

bool copiesPlainData(const Instruction &Copy) {
  std::optional<ByteLayout> Layout = markedRecordLayout(Copy);
  return Layout && Layout->Floats.empty() && Layout->Pointers.empty();
}

void markElementAssignment(Instruction &Copy) {
  Copy.setMetadata(AssignsKind, MDNode::get(Copy.getContext(), {}));
}

Type *assignedFloatType(const Instruction &Copy) {
  if (!Copy.getMetadata(AssignsKind))
    return nullptr;
  std::optional<ByteLayout> Layout = markedRecordLayout(Copy);
  if (!Layout || Layout->Floats.size() != 1 || !Layout->Pointers.empty() ||
      Layout->Floats[0].first != 0)
    return nullptr;
  Type *Element = Layout->Floats[0].second;
  return Element->getPrimitiveSizeInBits() == Layout->Stride * 8 ? Element
                                                                 : nullptr;
}

void markRecordLayout(Instruction &Copy, const ByteLayout &Layout) {
  LLVMContext &Ctx = Copy.getContext();
  auto Int = [&Ctx](uint64_t V) {
    return ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(Ctx), V));
  };
  SmallVector<Metadata *, 8> Floats, Pointers;
  for (auto [Offset, Ty] : Layout.Floats) {
    Floats.push_back(Int(Offset));
    Floats.push_back(Int(Ty->getPrimitiveSizeInBits()));
  }
  for (uint64_t Offset : Layout.Pointers)
    Pointers.push_back(Int(Offset));
  Copy.setMetadata(
      RecordLayoutKind,
      MDNode::get(Ctx, {Int(Layout.Stride), MDNode::get(Ctx, Floats),
                        MDNode::get(Ctx, Pointers)}));
}

std::optional<ByteLayout> markedRecordLayout(const Instruction &Copy) {
  const MDNode *Node = Copy.getMetadata(RecordLayoutKind);
  if (!Node || Node->getNumOperands() != 3)
    return std::nullopt;
  auto Int = [](const MDOperand &Op) -> std::optional<uint64_t> {
    if (auto *C = mdconst::dyn_extract<ConstantInt>(Op))
      return C->getZExtValue();
    return std::nullopt;
  };
  auto *Floats = dyn_cast<MDNode>(Node->getOperand(1));
  auto *Pointers = dyn_cast<MDNode>(Node->getOperand(2));
  std::optional<uint64_t> Stride = Int(Node->getOperand(0));
  if (!Floats || !Pointers || !Stride || !*Stride ||
      Floats->getNumOperands() % 2)
    return std::nullopt;
  // A copy the optimizer cut down (dead store elimination shortens a
  // memcpy in place, metadata and all) may no longer start at an element:
  // a constant length must still be whole elements.
  if (const auto *Transfer = dyn_cast<MemTransferInst>(&Copy))
    if (const auto *Length = dyn_cast<ConstantInt>(Transfer->getLength());
        Length && Length->getZExtValue() % *Stride)
      return std::nullopt;
  ByteLayout Layout;
  Layout.Stride = *Stride;
  for (unsigned I = 0; I < Floats->getNumOperands(); I += 2) {
    std::optional<uint64_t> Offset = Int(Floats->getOperand(I));
    std::optional<uint64_t> Bits = Int(Floats->getOperand(I + 1));
    if (!Offset || !Bits || (*Bits != 32 && *Bits != 64))
      return std::nullopt;
    Layout.Floats.push_back(
        {*Offset, *Bits == 32 ? Type::getFloatTy(Copy.getContext())
                              : Type::getDoubleTy(Copy.getContext())});
  }
  for (const MDOperand &Op : Pointers->operands())
    if (std::optional<uint64_t> Offset = Int(Op))
      Layout.Pointers.push_back(*Offset);
  return Layout;
}

std::optional<ByteLayout> copiedByteLayout(Value *Dest, Value *Source,
                                           const Instruction *Copy,
                                           ArrayRef<Type *> ArgElementTypes,
                                           const DataLayout &DL) {
  // The source's types: a copy between typed pointers, from the start of
  // an element.
  if (Copy)
    if (std::optional<ByteLayout> FromSource = markedRecordLayout(*Copy))
      return FromSource;
  if (Copy)
    if (const auto *Transfer = dyn_cast<MemTransferInst>(Copy))
      if (const auto *Length = dyn_cast<ConstantInt>(Transfer->getLength()))
        if (std::optional<ByteLayout> FromClang =
                tbaaStructLayout(*Copy, Length->getZExtValue()))
          return FromClang;

  SmallVector<const Value *, 8> Roots;
  getUnderlyingObjects(Dest, Roots, /*LI=*/nullptr, /*MaxLookup=*/0);
  getUnderlyingObjects(Source, Roots, /*LI=*/nullptr, /*MaxLookup=*/0);
  SmallPtrSet<const Value *, 8> Objects;
  Evidence Found;
  for (const Value *Object : Roots) {
    if (isa<Constant>(Object) && !isa<GlobalValue>(Object))
      continue; // null: a cursor's start, pointing to nothing
    if (Objects.insert(Object).second)
      collectRecordEvidence(const_cast<Value *>(Object), ArgElementTypes,
                            Found);
  }
  ArrayRef<Instruction *> Accesses = Found.Accesses;
  Type *Record = chooseRecord(Found.Records, DL);
  if (!Record)
    return std::nullopt;
  std::optional<ByteLayout> Layout = recordLayout(Record, DL);
  if (!Layout)
    return std::nullopt;
  SmallVector<const Value *, 32> Pointers{Dest, Source};
  for (const Instruction *Access : Accesses)
    if (!isIntegerCopy(*Access))
      if (const Value *Pointer = getLoadStorePointerOperand(Access))
        Pointers.push_back(Pointer);
  RecordPhases Phases(Objects, Layout->Stride, DL);
  if (!Phases.solve(Pointers))
    return std::nullopt;
  for (const Instruction *Access : Accesses) {
    const Value *Pointer = getLoadStorePointerOperand(Access);
    if (!Pointer || isIntegerCopy(*Access))
      continue;
    std::optional<uint64_t> Phase = Phases.of(Pointer);
    if (!Phase || !agrees(*Access, *Phase, *Layout, DL))
      return std::nullopt;
  }
  std::optional<uint64_t> DestPhase = Phases.of(Dest);
  std::optional<uint64_t> SourcePhase = Phases.of(Source);
  if (!DestPhase || !SourcePhase || *DestPhase != *SourcePhase)
    return std::nullopt;
  return rotate(*Layout, *DestPhase);
}

} // namespace slope
