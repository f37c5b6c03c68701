//===- ForwardEmitter.cpp - Tangents alongside the primal -----------------===//
//
// Forward mode keeps the primal's control flow: every active instruction is
// followed by the computation of its tangent, every active phi by a tangent
// phi. Loops need nothing special.
//
//===----------------------------------------------------------------------===//
#include "Activity.h"
#include "CloneInto.h"
#include "DiffError.h"
#include "Emitters.h"
#include "Preprocess.h"
#include "Rules.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace slope {

Type *resultStructType(Type *PrimalResult, ArrayRef<Type *> Extra) {
  SmallVector<Type *, 8> Fields;
  if (!PrimalResult->isVoidTy())
    Fields.push_back(PrimalResult);
  Fields.append(Extra.begin(), Extra.end());
  return StructType::get(PrimalResult->getContext(), Fields);
}

namespace {

class ForwardEmitter {
public:
  ForwardEmitter(const DiffRequest &Req, Function &Primal)
      : Req(Req), Primal(Primal) {}

  Expected<Function *> run();

private:
  /// The tangent of V, or null when V is inactive (zero tangent).
  Value *tangent(Value *V) const { return Tangents.lookup(V); }
  Value *tangentOrZero(Value *V) const {
    if (Value *T = tangent(V))
      return T;
    return Constant::getNullValue(V->getType());
  }
  Error emitTangent(Instruction &I);
  void rewriteReturn(ReturnInst &Ret);

  const DiffRequest &Req;
  Function &Primal;
  Function *Derivative = nullptr;
  DenseMap<Value *, Value *> Tangents;
  SmallVector<std::pair<PHINode *, PHINode *>, 8> TangentPhis;
  bool ResultIsFP = false;
};

Expected<Function *> ForwardEmitter::run() {
  Type *RetTy = Primal.getReturnType();
  ResultIsFP = RetTy->isFloatingPointTy();

  SmallVector<Type *, 8> Params(Primal.getFunctionType()->params());
  SmallVector<unsigned, 8> ActiveArgs;
  for (unsigned I = 0; I < Req.Args.size(); ++I)
    if (Req.isActive(I)) {
      Params.push_back(Primal.getArg(I)->getType());
      ActiveArgs.push_back(I);
    }
  Type *NewRetTy = ResultIsFP ? resultStructType(RetTy, {RetTy}) : RetTy;
  ValueToValueMapTy Map;
  Derivative =
      cloneIntoNewSignature(Primal, FunctionType::get(NewRetTy, Params, false),
                            Req.derivativeName(), Map);

  SmallVector<bool, 8> ActiveFlags(Req.Args.size(), false);
  for (auto [K, ArgNo] : enumerate(ActiveArgs)) {
    Argument *T = Derivative->getArg(Primal.arg_size() + K);
    T->setName(Primal.getArg(ArgNo)->getName() + ".tangent");
    Tangents[Derivative->getArg(ArgNo)] = T;
    ActiveFlags[ArgNo] = true;
  }

  auto Activity = ActivityInfo::analyze(*Derivative, ActiveFlags, ResultIsFP);
  if (!Activity) {
    Derivative->eraseFromParent();
    return Activity.takeError();
  }

  ReversePostOrderTraversal<Function *> RPO(Derivative);
  for (BasicBlock *BB : RPO) {
    SmallVector<Instruction *, 32> Original;
    for (Instruction &I : *BB)
      Original.push_back(&I);
    for (Instruction *I : Original) {
      if (auto *Ret = dyn_cast<ReturnInst>(I)) {
        rewriteReturn(*Ret);
        continue;
      }
      if (!Activity->isActive(I))
        continue;
      if (Error E = emitTangent(*I)) {
        Derivative->eraseFromParent();
        return std::move(E);
      }
    }
  }
  for (auto [Phi, TangentPhi] : TangentPhis)
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      TangentPhi->addIncoming(tangentOrZero(Phi->getIncomingValue(K)),
                              Phi->getIncomingBlock(K));

  if (Error E = verifyGenerated(*Derivative)) {
    Derivative->eraseFromParent();
    return std::move(E);
  }
  simplify(*Derivative);
  return Derivative;
}

Error ForwardEmitter::emitTangent(Instruction &I) {
  if (auto *Phi = dyn_cast<PHINode>(&I)) {
    IRBuilder<> B(Phi->getParent(), Phi->getParent()->getFirstNonPHIIt());
    PHINode *T = B.CreatePHI(Phi->getType(), Phi->getNumIncomingValues(),
                             Phi->getName() + ".tangent");
    TangentPhis.push_back({Phi, T});
    Tangents[Phi] = T;
    return Error::success();
  }

  IRBuilder<> B(I.getParent(), std::next(I.getIterator()));
  Value *T = nullptr;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    T = B.CreateFPCast(tangentOrZero(I.getOperand(0)), I.getType());
    break;
  case Instruction::Freeze:
    T = tangentOrZero(I.getOperand(0));
    break;
  case Instruction::Select:
    T = B.CreateSelect(I.getOperand(0), tangentOrZero(I.getOperand(1)),
                       tangentOrZero(I.getOperand(2)));
    break;
  default: {
    const DerivativeRule *Rule = findRule(I);
    if (!Rule)
      return unsupported(I, "no derivative rule");
    SmallVector<Value *, 3> OperandTangents;
    for (Use *U : differentiableOperands(I))
      OperandTangents.push_back(tangent(U->get()));
    auto Available = [](Value *V) { return V; };
    RuleOperands Ops(B, I, Available);
    T = applyForward(*Rule, Ops, OperandTangents);
    break;
  }
  }
  T->setName(I.getName() + ".tangent");
  Tangents[&I] = T;
  return Error::success();
}

void ForwardEmitter::rewriteReturn(ReturnInst &Ret) {
  if (!ResultIsFP)
    return;
  IRBuilder<> B(&Ret);
  Value *V = Ret.getReturnValue();
  Value *Pair = UndefValue::get(Derivative->getReturnType());
  Pair = B.CreateInsertValue(Pair, V, 0);
  Pair = B.CreateInsertValue(Pair, tangentOrZero(V), 1);
  B.CreateRet(Pair);
  Ret.eraseFromParent();
}

} // namespace

Expected<Function *> emitForward(const DiffRequest &Req, Function &Primal) {
  return ForwardEmitter(Req, Primal).run();
}

} // namespace slope
