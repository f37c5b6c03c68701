//===- AggregateReturns.cpp -----------------------------------------------===//
#include "AggregateReturns.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <vector>

using namespace llvm;

namespace slope {
namespace {

bool holdsFloatingPoint(Type *T) {
  if (T->isFPOrFPVectorTy())
    return true;
  if (auto *S = dyn_cast<StructType>(T))
    return any_of(S->elements(), holdsFloatingPoint);
  if (auto *A = dyn_cast<ArrayType>(T))
    return holdsFloatingPoint(A->getElementType());
  return false;
}

/// Calls \p Visit with the index path of every scalar inside \p T (a
/// vector's elements are scalars too).
void forEachLeaf(Type *T, SmallVectorImpl<unsigned> &Path,
                 function_ref<void(ArrayRef<unsigned>)> Visit) {
  auto Descend = [&](unsigned N, auto ElementAt) {
    for (unsigned I = 0; I < N; ++I) {
      Path.push_back(I);
      forEachLeaf(ElementAt(I), Path, Visit);
      Path.pop_back();
    }
  };
  if (auto *S = dyn_cast<StructType>(T))
    Descend(S->getNumElements(),
            [&](unsigned I) { return S->getElementType(I); });
  else if (auto *A = dyn_cast<ArrayType>(T))
    Descend(A->getNumElements(), [&](unsigned) { return A->getElementType(); });
  else if (auto *V = dyn_cast<FixedVectorType>(T))
    Descend(V->getNumElements(), [&](unsigned) { return V->getElementType(); });
  else
    Visit(Path);
}

Value *leafAddress(IRBuilderBase &B, Type *Aggregate, Value *Base,
                   ArrayRef<unsigned> Path) {
  if (auto *V = dyn_cast<FixedVectorType>(Aggregate))
    return B.CreateConstInBoundsGEP1_32(V->getElementType(), Base, Path[0]);
  SmallVector<Value *, 4> Indices{B.getInt32(0)};
  for (unsigned I : Path)
    Indices.push_back(B.getInt32(I));
  return B.CreateInBoundsGEP(Aggregate, Base, Indices);
}

bool returnsAggregateWithFloatingPoint(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  Type *T = Call.getType();
  return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
         (T->isAggregateType() || isa<FixedVectorType>(T)) &&
         holdsFloatingPoint(T);
}

Value *extractLeaf(IRBuilderBase &B, Value *Aggregate,
                   ArrayRef<unsigned> Path) {
  if (Aggregate->getType()->isVectorTy())
    return B.CreateExtractElement(Aggregate, Path[0]);
  return B.CreateExtractValue(Aggregate, Path);
}

Value *insertLeaf(IRBuilderBase &B, Value *Aggregate, Value *Leaf,
                  ArrayRef<unsigned> Path) {
  if (Aggregate->getType()->isVectorTy())
    return B.CreateInsertElement(Aggregate, Leaf, Path[0]);
  return B.CreateInsertValue(Aggregate, Leaf, Path);
}

Type *leafType(Type *Aggregate, ArrayRef<unsigned> Path) {
  if (auto *V = dyn_cast<VectorType>(Aggregate))
    return V->getElementType();
  return ExtractValueInst::getIndexedType(Aggregate, Path);
}

/// The scalar at \p Path inside the aggregate \p V, looked up through the
/// insertions, phis and selects that built V, so that no aggregate is left
/// on the way to the stores (Slope differentiates scalars).
class LeafFinder {
public:
  Value *leaf(Value *V, ArrayRef<unsigned> Path) {
    auto Key =
        std::make_pair(V, std::vector<unsigned>(Path.begin(), Path.end()));
    if (auto Known = Memo.find(Key); Known != Memo.end())
      return Known->second;
    Value *Result = find(V, Path);
    Memo[Key] = Result;
    return Result;
  }

private:
  Value *find(Value *V, ArrayRef<unsigned> Path) {
    if (Path.empty())
      return V;
    Type *Leaf = leafType(V->getType(), Path);
    if (auto *C = dyn_cast<Constant>(V)) {
      for (unsigned I : Path)
        C = C ? C->getAggregateElement(I) : nullptr;
      return C ? C : PoisonValue::get(Leaf);
    }
    if (auto *Insert = dyn_cast<InsertValueInst>(V)) {
      ArrayRef<unsigned> At = Insert->getIndices();
      if (Path.take_front(At.size()) == At)
        return leaf(Insert->getInsertedValueOperand(),
                    Path.drop_front(At.size()));
      return leaf(Insert->getAggregateOperand(), Path);
    }
    if (auto *Insert = dyn_cast<InsertElementInst>(V))
      if (auto *Index = dyn_cast<ConstantInt>(Insert->getOperand(2)))
        return Index->getZExtValue() == Path[0]
                   ? Insert->getOperand(1)
                   : leaf(Insert->getOperand(0), Path);
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      PHINode *New = PHINode::Create(Leaf, Phi->getNumIncomingValues(),
                                     Phi->getName() + ".leaf");
      New->insertBefore(Phi);
      // Memoized before the incoming values: loops reach the phi again.
      Memo[std::make_pair(V, std::vector<unsigned>(Path.begin(), Path.end()))] =
          New;
      for (auto [In, Block] : zip(Phi->incoming_values(), Phi->blocks()))
        New->addIncoming(leaf(In, Path), Block);
      return New;
    }
    if (auto *Select = dyn_cast<SelectInst>(V)) {
      IRBuilder<> B(Select);
      return B.CreateSelect(Select->getCondition(),
                            leaf(Select->getTrueValue(), Path),
                            leaf(Select->getFalseValue(), Path));
    }
    // Anything else (a call, a load): extract right after it.
    auto *I = cast<Instruction>(V);
    IRBuilder<> B(I->getParent(), isa<PHINode>(I)
                                      ? I->getParent()->getFirstInsertionPt()
                                      : std::next(I->getIterator()));
    return extractLeaf(B, V, Path);
  }

  std::map<std::pair<Value *, std::vector<unsigned>>, Value *> Memo;
};

/// G with its result stored through a new first parameter.
Function *byReference(Function &G) {
  std::string Name = (G.getName() + ".slope.byref").str();
  Module &M = *G.getParent();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  Type *Result = G.getReturnType();
  SmallVector<Type *, 8> Params{PointerType::getUnqual(G.getContext())};
  append_range(Params, G.getFunctionType()->params());
  Function *New = Function::Create(
      FunctionType::get(Type::getVoidTy(G.getContext()), Params, false),
      GlobalValue::InternalLinkage, Name, M);
  ValueToValueMapTy Map;
  for (Argument &A : G.args()) {
    Argument *Copy = New->getArg(A.getArgNo() + 1);
    Copy->setName(A.getName());
    Map[&A] = Copy;
  }
  Argument *Out = New->getArg(0);
  Out->setName("result.out");
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(New, &G, Map, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  // It writes memory now; parameter attributes moved by one.
  New->setAttributes(AttributeList::get(
      G.getContext(), G.getAttributes().getFnAttrs(), {}, {}));
  New->removeFnAttr(Attribute::Memory);
  // Slope's own marks on parameters (a reverse part's record) stay.
  for (Argument &A : G.args())
    for (Attribute Mark : G.getAttributes().getParamAttrs(A.getArgNo()))
      if (Mark.isStringAttribute())
        New->addParamAttr(A.getArgNo() + 1, Mark);
  New->setCallingConv(G.getCallingConv());
  // Its own recursive calls go through memory too; their results are then
  // rebuilt aggregates the leaf finder sees through.
  returnAggregatesThroughMemory(*New);
  LeafFinder Leaves;
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> B(Ret);
    SmallVector<unsigned, 4> Path;
    forEachLeaf(Result, Path, [&](ArrayRef<unsigned> Leaf) {
      B.CreateStore(Leaves.leaf(Ret->getReturnValue(), Leaf),
                    leafAddress(B, Result, Out, Leaf));
    });
    B.CreateRetVoid();
    Ret->eraseFromParent();
  }
  return New;
}

} // namespace

void returnAggregatesThroughMemory(Function &F) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && returnsAggregateWithFloatingPoint(*Call))
      Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Function *ByReference = byReference(*Call->getCalledFunction());
    Type *Result = Call->getType();
    BasicBlock &Entry = F.getEntryBlock();
    AllocaInst *Slot =
        IRBuilder<>(&Entry, Entry.getFirstInsertionPt())
            .CreateAlloca(Result, nullptr, Call->getName() + ".slot");
    IRBuilder<> B(Call);
    SmallVector<Value *, 8> Args{Slot};
    append_range(Args, Call->args());
    CallInst *New = B.CreateCall(ByReference, Args);
    New->setCallingConv(ByReference->getCallingConv());
    New->setDebugLoc(Call->getDebugLoc());
    // The fields are loaded one by one; simplification folds the
    // extractvalues of this rebuilt aggregate into them.
    Value *Aggregate = PoisonValue::get(Result);
    SmallVector<unsigned, 4> Path;
    forEachLeaf(Result, Path, [&](ArrayRef<unsigned> Leaf) {
      Aggregate = insertLeaf(B, Aggregate,
                             B.CreateLoad(leafType(Result, Leaf),
                                          leafAddress(B, Result, Slot, Leaf)),
                             Leaf);
    });
    Aggregate->takeName(Call);
    Call->replaceAllUsesWith(Aggregate);
    Call->eraseFromParent();
  }
}

} // namespace slope
