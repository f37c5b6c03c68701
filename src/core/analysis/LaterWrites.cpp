//===- LaterWrites.cpp ----------------------------------------------------===//
#include "LaterWrites.h"
#include "ByteLayout.h"
#include "Rules.h"
#include "Target.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace slope {

/// Alias queries cost loads × writers; past this the function keeps its
/// tape (compile time stays bounded on huge functions).
static constexpr unsigned MaxQueries = 200000;

/// A load with more later writers than this is taped: putting back what
/// each of them overwrites would cost more than the tape entry.
static constexpr unsigned MaxRestorableWriters = 3;

/// Writes memory the program can see: not a call of a math function with a
/// derivative rule (those set errno at most).
static bool writesVisibleMemory(const Instruction &I) {
  if (!I.mayWriteToMemory())
    return false;
  return !(isa<CallBase>(I) && findRule(I));
}

/// Scoped noalias metadata (from inlined restrict parameters) holds within
/// one execution of the scope: a scope declared inside a loop is a new one
/// in every iteration, and says nothing across them.
static bool scopesHoldAcrossIterations(Function &F, LoopInfo &LI) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Decl = dyn_cast<IntrinsicInst>(&I);
          Decl &&
          Decl->getIntrinsicID() ==
              Intrinsic::experimental_noalias_scope_decl &&
          LI.getLoopFor(&BB))
        return false;
  return true;
}

/// Clang's type-based alias tag on an access, in the old format: the type
/// of the object accessed (Base: a struct for a field), the type accessed,
/// and the offset in Base.
struct AliasTag {
  MDNode *Tag;
  MDNode *Base;
  MDNode *Access;
  uint64_t Offset;
  /// The name of Base ("double", "_ZTS4Mesh", ...).
  StringRef BaseName() const {
    auto *Name = Base->getNumOperands() > 0
                     ? dyn_cast<MDString>(Base->getOperand(0))
                     : nullptr;
    return Name ? Name->getString() : "";
  }
};

static std::optional<AliasTag> aliasTag(const Instruction &I) {
  MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 3)
    return std::nullopt;
  auto *Base = dyn_cast<MDNode>(Tag->getOperand(0));
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  auto *Offset = mdconst::dyn_extract<ConstantInt>(Tag->getOperand(2));
  if (!Base || !Access || !Offset)
    return std::nullopt;
  return AliasTag{Tag, Base, Access, Offset->getZExtValue()};
}

/// Clang's type-based alias tag for a whole `double` or `float` object, as
/// \p Access carries it (a scalar tag of the old format), or null.
static MDNode *floatScalarTag(const Instruction &Access) {
  Type *Ty = getLoadStoreType(const_cast<Instruction *>(&Access));
  std::optional<AliasTag> Tag = aliasTag(Access);
  if (!Tag || Tag->Base != Tag->Access || Tag->Offset != 0 ||
      !(Ty->isDoubleTy() || Ty->isFloatTy()) ||
      Tag->BaseName() != (Ty->isDoubleTy() ? "double" : "float"))
    return nullptr;
  return Tag->Tag;
}

/// When \p Load reads the data pointer of a std::vector (libstdc++'s
/// _M_start, as clang's alias tag names the field), the mangled element
/// type ("d" for double, "St6vectorIdSaIdEE" for a vector); empty
/// otherwise.
static StringRef vectorDataElement(const LoadInst &Load) {
  std::optional<AliasTag> Tag = aliasTag(Load);
  if (!Tag || Tag->Offset != 0 || !Load.getType()->isPointerTy())
    return "";
  StringRef Type = Tag->BaseName();
  if (!Type.consume_front("_ZTSNSt12_Vector_baseI") ||
      !Type.consume_back("EE17_Vector_impl_dataE"))
    return "";
  size_t Allocator = Type.rfind("SaI");
  return Allocator == StringRef::npos ? "" : Type.take_front(Allocator);
}

struct LaterWrites::Analyses {
  Analyses(Function &F, const TargetLibraryInfo &TLI,
           ArrayRef<SmallVector<uint64_t, 4>> ArgVectorData)
      : F(F), DT(F), LI(DT), AC(F), Basic(F.getDataLayout(), F, TLI, AC, &DT),
        AA(TLI), Batch(AA), LibraryInfo(TLI), SE(F, LibraryInfo, AC, DT, LI),
        ArgVectorData(ArgVectorData) {
    AA.addAAResult(Basic);
    AA.addAAResult(TypeBased);
    if (scopesHoldAcrossIterations(F, LI))
      AA.addAAResult(ScopedNoAlias);
    // The access and the write may be in different iterations of a loop
    // around both (or the write after the loop, in terms of the last
    // iteration's values): never compare addresses as if one iteration
    // computed both.
    Batch.enableCrossIterationMode();
    ReversePostOrderTraversal<Function *> RPO(&F);
    Reducible = !containsIrreducibleCFG<const BasicBlock *>(RPO, LI);
    OtherThreadsWrite = otherThreadsWrite(F);
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (writesVisibleMemory(I))
          Writers.push_back(&I);
        if (isa<LoadInst>(I) || isa<StoreInst>(I))
          if (MDNode *Tag = floatScalarTag(I))
            FloatTags.try_emplace(getLoadStoreType(&I), Tag);
      }
  }

  /// Whether \p W writes only into buffers of std::vectors of a builtin
  /// type: those hold no vector objects, so \p W changes no data pointer.
  bool writesScalarBuffers(Instruction &W) {
    Value *Written = writtenAddress(W);
    SmallVector<LoadInst *, 4> Bases;
    return Written && vectorDataBases(Written, Bases) &&
           all_of(Bases, [&](LoadInst *Base) { return holdsBuiltins(*Base); });
  }

  static Value *writtenAddress(Instruction &W) {
    if (auto *Store = dyn_cast<StoreInst>(&W))
      return Store->getPointerOperand();
    if (auto *Bulk = dyn_cast<MemIntrinsic>(&W))
      return Bulk->getRawDest();
    return nullptr;
  }

  /// The one data pointer load every address \p Ptr may be based on, when
  /// it loads a std::vector's data pointer that no write of the function
  /// changes; null otherwise.
  LoadInst *vectorDataOf(const Value *Ptr) {
    auto [Known, First] = VectorDataOf.try_emplace(Ptr, nullptr);
    if (First)
      Known->second = findVectorData(Ptr);
    return Known->second;
  }

  LoadInst *findVectorData(const Value *Ptr) {
    SmallVector<LoadInst *, 4> Bases;
    if (!vectorDataBases(Ptr, Bases) || any_of(Bases, [&](LoadInst *Base) {
          return Base->getPointerOperand() != Bases[0]->getPointerOperand();
        }))
      return nullptr;
    LoadInst *Data = Bases[0];
    auto [It, New] = FixedDataPointer.try_emplace(Data->getPointerOperand());
    if (New) {
      MemoryLocation Field = MemoryLocation::get(Data);
      It->second = none_of(Writers, [&](Instruction *W) {
        return isModSet(Batch.getModRefInfo(W, Field)) &&
               !writesScalarBuffers(*W);
      });
    }
    return It->second ? Data : nullptr;
  }

  /// Whether \p W and the load \p At touch memory that C++'s ownership
  /// rules keep apart, for data pointers of std::vectors that no write of
  /// the function changes (no buffer is freed, moved or swapped meanwhile):
  /// - the buffers of two distinct vectors (the vector objects proven
  ///   distinct in any iterations of the loops around the accesses);
  /// - the buffer of a vector of a builtin type, which holds no struct,
  ///   and a field of a struct (an access whose alias tag is a field's).
  bool touchesOtherObject(Instruction &W, Instruction &At) {
    auto *Load = dyn_cast<LoadInst>(&At);
    Value *Written = writtenAddress(W);
    if (!Load || !Written)
      return false;
    LoadInst *ReadData = vectorDataOf(Load->getPointerOperand());
    LoadInst *WrittenData = vectorDataOf(Written);
    if (ReadData && WrittenData)
      return Batch.alias(MemoryLocation::get(ReadData),
                         MemoryLocation::get(WrittenData)) ==
             AliasResult::NoAlias;
    if (ReadData)
      return holdsBuiltins(*ReadData) && accessesField(W);
    if (WrittenData)
      return holdsBuiltins(*WrittenData) && accessesField(*Load);
    return false;
  }

  /// What \p Load of a pointer is known to load.
  enum class DataPointer { Unknown, OfVector, OfVectorOfBuiltins };

  /// A std::vector's data pointer as clang's alias tag names the field, or
  /// at an offset the front end lists for a parameter's struct (where the
  /// optimizer dropped the tag from a hoisted load).
  DataPointer classify(const LoadInst &Load) {
    if (!Load.isSimple() || !Load.getType()->isPointerTy())
      return DataPointer::Unknown;
    StringRef Element = vectorDataElement(Load);
    if (!Element.empty())
      return Element.size() == 1 && islower(Element[0])
                 ? DataPointer::OfVectorOfBuiltins
                 : DataPointer::OfVector;
    int64_t Offset = 0;
    auto *Arg = dyn_cast<Argument>(GetPointerBaseWithConstantOffset(
        Load.getPointerOperand(), Offset, F.getDataLayout()));
    if (Arg && Arg->getArgNo() < ArgVectorData.size() &&
        is_contained(ArgVectorData[Arg->getArgNo()], uint64_t(Offset)))
      return DataPointer::OfVectorOfBuiltins;
    return DataPointer::Unknown;
  }

  bool holdsBuiltins(const LoadInst &Data) {
    return classify(Data) == DataPointer::OfVectorOfBuiltins;
  }

  /// The loads of std::vector data pointers that every address \p Ptr may
  /// be based on; false when some base is anything else.
  bool vectorDataBases(const Value *Ptr, SmallVectorImpl<LoadInst *> &Out) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects, &LI);
    for (const Value *Object : Objects) {
      auto *Load = dyn_cast<LoadInst>(const_cast<Value *>(Object));
      if (!Load || classify(*Load) == DataPointer::Unknown)
        return false;
      Out.push_back(Load);
    }
    return !Out.empty();
  }

  /// Whether clang's alias tag on \p I is a struct field's (its base type
  /// is not the accessed type).
  static bool accessesField(const Instruction &I) {
    std::optional<AliasTag> Tag = aliasTag(I);
    return Tag && Tag->Base != Tag->Access && Tag->Base->getNumOperands() > 3;
  }

  /// Whether \p W is a copy that assigns floating-point elements (the
  /// standard library's std::copy) and so, by the C++ type rules that
  /// clang's alias tags state, cannot change \p Where: memory that holds
  /// integers or pointers. The tag is the one clang gives the function's
  /// own accesses of that type; without one (-fno-strict-aliasing, -O0)
  /// nothing is concluded.
  bool assignsOtherType(Instruction &W, const MemoryLocation &Where) {
    auto *Copy = dyn_cast<MemTransferInst>(&W);
    Type *Element = Copy ? assignedFloatType(*Copy) : nullptr;
    MDNode *Tag = Element ? FloatTags.lookup(Element) : nullptr;
    if (!Tag)
      return false;
    MemoryLocation Dest = MemoryLocation::getForDest(Copy);
    Dest.AATags.TBAA = Tag;
    return Batch.alias(Dest, Where) == AliasResult::NoAlias;
  }

  /// Whether \p W may change \p Where, which \p At accesses, wherever
  /// the two run.
  bool mayChange(Instruction *W, Instruction &At, const MemoryLocation &Where) {
    return W != &At && isModSet(Batch.getModRefInfo(W, Where)) &&
           !assignsOtherType(*W, Where) && !touchesOtherObject(*W, At);
  }

  /// Whether \p W may run after \p At and change \p Where.
  bool changesLater(Instruction *W, Instruction &At,
                    const MemoryLocation &Where) {
    if (!mayChange(W, At, Where) ||
        !isPotentiallyReachable(&At, W, nullptr, &DT, &LI))
      return false;
    auto *Load = dyn_cast<LoadInst>(&At);
    auto *Store = dyn_cast<StoreInst>(W);
    return !(Load && Store && storesOnlyAhead(*Load, *Store));
  }

  /// A load and a store in the same loop, which no other loop encloses,
  /// both stepping through memory by the same constant stride: in iteration
  /// j the store writes d + (j - i)·stride bytes from where the load read in
  /// iteration i. For every j >= i that stays clear of the load when the
  /// store starts at least a load's size ahead in the direction of the
  /// stride (x[i] written after x[i - 1] is read: never again). Later
  /// iterations are all the store has left; no enclosing loop runs them
  /// again.
  bool storesOnlyAhead(LoadInst &Load, StoreInst &Store) {
    Loop *L = LI.getLoopFor(Load.getParent());
    // An irreducible cycle (none after preparation) could enter the loop
    // again although no loop of LoopInfo encloses it.
    if (!Reducible || !L || L->getParentLoop() ||
        LI.getLoopFor(Store.getParent()) != L || !Load.isSimple() ||
        !Store.isSimple())
      return false;
    auto *Read = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Load.getPointerOperand()));
    auto *Written =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Store.getPointerOperand()));
    // (Addresses that memory accesses use do not wrap around the address
    // space: no object spans its end.)
    if (!Read || !Written || Read->getLoop() != L || Written->getLoop() != L ||
        !Read->isAffine() || !Written->isAffine())
      return false;
    auto *Stride = dyn_cast<SCEVConstant>(Read->getStepRecurrence(SE));
    if (!Stride || Stride != Written->getStepRecurrence(SE) ||
        Stride->getAPInt().isZero())
      return false;
    auto *Ahead = dyn_cast<SCEVConstant>(
        SE.getMinusSCEV(Written->getStart(), Read->getStart()));
    if (!Ahead)
      return false;
    const DataLayout &DL = F.getDataLayout();
    int64_t LoadBytes = DL.getTypeStoreSize(Load.getType());
    int64_t StoreBytes =
        DL.getTypeStoreSize(Store.getValueOperand()->getType());
    int64_t D = Ahead->getAPInt().getSExtValue();
    return Stride->getAPInt().isStrictlyPositive() ? D >= LoadBytes
                                                   : D <= -StoreBytes;
  }

  Function &F;
  DominatorTree DT;
  LoopInfo LI;
  AssumptionCache AC;
  BasicAAResult Basic;
  TypeBasedAAResult TypeBased;
  ScopedNoAliasAAResult ScopedNoAlias;
  AAResults AA;
  BatchAAResults Batch;
  TargetLibraryInfo LibraryInfo;
  ScalarEvolution SE;
  bool OtherThreadsWrite = false;
  bool Reducible = true;
  SmallVector<Instruction *, 32> Writers;
  /// Clang's alias tags of whole double and float objects, by type.
  DenseMap<Type *, MDNode *> FloatTags;
  ArrayRef<SmallVector<uint64_t, 4>> ArgVectorData;
  /// Addresses of std::vector data pointers: whether no write changes them.
  DenseMap<const Value *, bool> FixedDataPointer;
  /// vectorDataOf by address: asked once per (write, load) pair.
  DenseMap<const Value *, LoadInst *> VectorDataOf;
};

LaterWrites::LaterWrites(Function &F, const TargetLibraryInfo &TLI,
                         ArrayRef<SmallVector<uint64_t, 4>> ArgVectorData)
    : A(std::make_unique<Analyses>(F, TLI, ArgVectorData)) {}

LaterWrites::~LaterWrites() = default;

Instruction *LaterWrites::laterWriter(Instruction &At,
                                      const MemoryLocation &Where) {
  if (A->OtherThreadsWrite)
    return &At;
  for (Instruction *W : A->Writers)
    if (A->changesLater(W, At, Where))
      return W;
  return nullptr;
}

bool LaterWrites::affords(uint64_t Loads) const {
  return Loads * A->Writers.size() <= MaxQueries;
}

Instruction *LaterWrites::writerInLoop(LoadInst &Load, const Loop &L) {
  if (A->OtherThreadsWrite)
    return &Load;
  MemoryLocation Where = MemoryLocation::get(&Load);
  for (Instruction *W : A->Writers)
    if (L.contains(W->getParent()) && A->mayChange(W, Load, Where))
      return W;
  return nullptr;
}

DominatorTree &LaterWrites::dominators() { return A->DT; }

LoopInfo &LaterWrites::loops() { return A->LI; }

AssumptionCache &LaterWrites::assumptions() { return A->AC; }

LoadWriters LaterWrites::sortLoads() {
  LoadWriters Result;
  if (A->OtherThreadsWrite)
    return Result;
  SmallVector<LoadInst *, 32> Candidates;
  for (BasicBlock &BB : A->F)
    for (Instruction &I : BB)
      if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        Candidates.push_back(Load);
  if (Candidates.empty() ||
      uint64_t(Candidates.size()) * A->Writers.size() > MaxQueries)
    return Result;

  for (LoadInst *Load : Candidates) {
    MemoryLocation Where = MemoryLocation::get(Load);
    SmallVector<Instruction *, 2> Found;
    bool AllPlain = true;
    for (Instruction *W : A->Writers) {
      if (!A->changesLater(W, *Load, Where))
        continue;
      Found.push_back(W);
      auto *Store = dyn_cast<StoreInst>(W);
      auto *Bulk = dyn_cast<MemIntrinsic>(W);
      AllPlain &= (Store && Store->isSimple()) || (Bulk && !Bulk->isVolatile());
      if (!AllPlain || Found.size() > MaxRestorableWriters)
        break;
    }
    if (Found.empty()) {
      Result.Unwritten.insert(Load);
      continue;
    }
    Result.LaterWriter[Load] = Found.front();
    if (AllPlain && Found.size() <= MaxRestorableWriters)
      Result.FewWriters[Load] = std::move(Found);
  }
  return Result;
}

} // namespace slope
