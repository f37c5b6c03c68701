//===- Rules.cpp - Rule lookup and the two ways of applying a rule --------===//
#include "Rules.h"
#include "PositiveBound.h"
#include "RuleTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

Value *RuleOperands::x(unsigned I) {
  if (auto *Call = dyn_cast<CallBase>(&Primal))
    return Available(Call->getArgOperand(I));
  return Available(Primal.getOperand(I));
}

Intrinsic::ID RuleOperands::intrinsic() const {
  const auto *Call = dyn_cast<CallBase>(&Primal);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee ? Callee->getIntrinsicID() : Intrinsic::not_intrinsic;
}

bool RuleOperands::avoidsSingularity(const DerivativeRule &Rule) const {
  if (Rule.SingularAt == fcNone)
    return false;
  const auto *Call = dyn_cast<CallBase>(&Primal);
  Value *Operand = Call ? Call->getArgOperand(Rule.SingularOperand)
                        : Primal.getOperand(Rule.SingularOperand);
  if (Rule.FiniteFrom > 0) {
    std::optional<double> Bound = positiveLowerBound(Operand);
    return Bound && *Bound >= Rule.FiniteFrom;
  }
  // A positive normal number (or infinity, or NaN) avoids every singular
  // class a rule names: zero, subnormals, negatives.
  if (isKnownNormalPositive(Operand))
    return true;
  KnownFPClass Known =
      computeKnownFPClass(Operand, Primal.getModule()->getDataLayout(),
                          Rule.SingularAt, /*Depth=*/0, /*TLI=*/nullptr,
                          /*AC=*/nullptr, &Primal);
  return Known.isKnownNever(Rule.SingularAt);
}

bool RuleOperands::prefersOperandToResult(unsigned I) {
  if (!WithoutTape || WithoutTape(&Primal))
    return false;
  const auto *Call = dyn_cast<CallBase>(&Primal);
  return WithoutTape(Call ? Call->getArgOperand(I) : Primal.getOperand(I));
}

Value *RuleOperands::c(double V) { return ConstantFP::get(type(), V); }
Value *RuleOperands::add(Value *A, Value *B2) { return B.CreateFAdd(A, B2); }
Value *RuleOperands::sub(Value *A, Value *B2) { return B.CreateFSub(A, B2); }
Value *RuleOperands::mul(Value *A, Value *B2) { return B.CreateFMul(A, B2); }
Value *RuleOperands::div(Value *A, Value *B2) { return B.CreateFDiv(A, B2); }
Value *RuleOperands::neg(Value *A) { return B.CreateFNeg(A); }

Instruction *RuleOperands::companionCall(Intrinsic::ID ID) {
  auto *Call = dyn_cast<CallBase>(&Primal);
  if (!Call || Call->arg_size() != 1)
    return nullptr;
  Value *Operand = Call->getArgOperand(0);
  for (Instruction &Other : *Primal.getParent()) {
    auto *OtherCall = dyn_cast<CallBase>(&Other);
    if (!OtherCall || OtherCall == Call || OtherCall->arg_size() != 1 ||
        OtherCall->getArgOperand(0) != Operand ||
        OtherCall->getType() != Call->getType())
      continue;
    if (!WholeBlockAvailable && !OtherCall->comesBefore(Call))
      continue;
    const DerivativeRule *Rule = findRule(*OtherCall);
    if (Rule && Rule->Intrinsic == ID)
      return OtherCall;
  }
  return nullptr;
}

Value *RuleOperands::call(Intrinsic::ID ID, ArrayRef<Value *> Args) {
  if (Args.size() == 1 && Args[0] == x(0))
    if (Instruction *Companion = companionCall(ID))
      return Available(Companion);
  return B.CreateIntrinsic(ID, {type()}, Args);
}

Value *RuleOperands::indicator(Value *Cond) {
  return B.CreateSelect(Cond, c(1.0), c(0.0));
}

Value *RuleOperands::sign(Value *A) {
  Value *Positive = indicator(B.CreateFCmpOGT(A, c(0.0)));
  Value *Negative = indicator(B.CreateFCmpOLT(A, c(0.0)));
  return sub(Positive, Negative);
}

namespace {

struct RuleIndex {
  DenseMap<unsigned, const DerivativeRule *> ByOpcode;
  DenseMap<unsigned, const DerivativeRule *> ByIntrinsic;
  StringMap<const DerivativeRule *> ByLibmName;

  RuleIndex() {
    for (ArrayRef<DerivativeRule> Table :
         {ruleTable(), nvvmRuleTable(), complexRuleTable()})
      for (const DerivativeRule &Rule : Table) {
        if (Rule.Opcode)
          ByOpcode[Rule.Opcode] = &Rule;
        else
          ByLibmName[Rule.Name] = &Rule;
        if (Rule.Intrinsic != Intrinsic::not_intrinsic)
          ByIntrinsic[Rule.Intrinsic] = &Rule;
      }
    forEachNVVMAlias([&](Intrinsic::ID ID, StringRef Name) {
      ByIntrinsic[ID] = ByLibmName.lookup(Name);
    });
  }
};

const RuleIndex &index() {
  static const RuleIndex Index;
  return Index;
}

/// "sinf" -> "sin" for float, "sinl" -> "sin" for long double.
StringRef libmBaseName(StringRef Name, Type *Ty) {
  if (Ty->isFloatTy())
    return Name.drop_back(Name.ends_with("f") ? 1 : 0);
  if (Ty->isX86_FP80Ty() || Ty->isFP128Ty() || Ty->isPPC_FP128Ty())
    return Name.drop_back(Name.ends_with("l") ? 1 : 0);
  return Name;
}

/// Multiplies a partial by a tangent or adjoint. Where the partial can be
/// singular, a zero factor yields zero instead of 0·inf = NaN.
Value *scale(IRBuilderBase &B, bool Guard, Value *Partial, Value *Factor) {
  Value *Product = B.CreateFMul(Partial, Factor);
  if (!Guard)
    return Product;
  Value *Zero = ConstantFP::get(Factor->getType(), 0.0);
  return B.CreateSelect(B.CreateFCmpOEQ(Factor, Zero), Zero, Product);
}

/// A C math function: declared here, not defined (unless \p MayHaveBody),
/// returning a floating-point type and taking that type (or integers, as
/// ldexp's exponent does).
bool hasMathPrototype(const Function &Callee, bool MayHaveBody) {
  Type *Ty = Callee.getReturnType();
  if ((!MayHaveBody && !Callee.isDeclaration()) || !Ty->isFloatingPointTy() ||
      Callee.arg_empty() || Callee.isVarArg())
    return false;
  return all_of(Callee.args(), [Ty](const Argument &A) {
    return A.getType() == Ty || A.getType()->isIntegerTy();
  });
}

/// \p Rule for the libm function \p Callee: the same number of operands,
/// and integers only where the result is locally constant (ldexp's
/// exponent); null otherwise.
const DerivativeRule *ruleOfMathFunction(const DerivativeRule *Rule,
                                         const Function &Callee) {
  if (!Rule || Rule->Arity != Callee.arg_size())
    return nullptr;
  for (const Argument &A : Callee.args())
    if (Rule->Partials[A.getArgNo()] && !A.getType()->isFloatingPointTy())
      return nullptr;
  return Rule;
}

} // namespace

const DerivativeRule *findRule(const Instruction &I) {
  const RuleIndex &Index = index();
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return nullptr;
    if (Intrinsic::ID ID = Callee->getIntrinsicID())
      return Index.ByIntrinsic.lookup(ID);
    // CUDA's libdevice (__nv_sin, __nv_powf, ...) may be linked in: its
    // functions keep their rules even with a body.
    StringRef Name = Callee->getName();
    // Slope's complex helpers (ComplexRules.cpp) have bodies, as libdevice's
    // functions do.
    bool LibDevice = Name.consume_front("__nv_");
    bool MayHaveBody = LibDevice || Name.starts_with("slope.complex.");
    if (!hasMathPrototype(*Callee, MayHaveBody))
      return nullptr;
    return ruleOfMathFunction(
        Index.ByLibmName.lookup(libmBaseName(Name, Call->getType())), *Callee);
  }
  return Index.ByOpcode.lookup(I.getOpcode());
}

const DerivativeRule *libDeviceRule(const Function &F) {
  StringRef Name = F.getName();
  if (!Name.consume_front("__nv_") || !hasMathPrototype(F, true))
    return nullptr;
  return ruleOfMathFunction(
      index().ByLibmName.lookup(libmBaseName(Name, F.getReturnType())), F);
}

Value *applyForward(const DerivativeRule &Rule, RuleOperands &Ops,
                    ArrayRef<Value *> Tangents) {
  Value *Sum = nullptr;
  bool Guard = Rule.GuardSingular && !Ops.avoidsSingularity(Rule);
  for (unsigned I = 0; I < Tangents.size() && I < Rule.Partials.size(); ++I) {
    if (!Tangents[I] || !Rule.Partials[I])
      continue;
    Value *Term = scale(Ops.B, Guard, Rule.Partials[I](Ops), Tangents[I]);
    Sum = Sum ? Ops.B.CreateFAdd(Sum, Term) : Term;
  }
  return Sum ? Sum : Ops.c(0.0);
}

void applyReverse(const DerivativeRule &Rule, RuleOperands &Ops, Value *Adjoint,
                  ArrayRef<bool> Wanted, SmallVectorImpl<Value *> &Out) {
  Out.assign(Wanted.size(), nullptr);
  bool Guard = Rule.GuardSingular && !Ops.avoidsSingularity(Rule);
  for (unsigned I = 0; I < Wanted.size() && I < Rule.Partials.size(); ++I)
    if (Wanted[I] && Rule.Partials[I])
      Out[I] = scale(Ops.B, Guard, Rule.Partials[I](Ops), Adjoint);
}

} // namespace slope
