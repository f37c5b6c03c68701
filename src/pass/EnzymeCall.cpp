//===- EnzymeCall.cpp -----------------------------------------------------===//
#include "EnzymeCall.h"
#include "DiffError.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <cstdlib>

using namespace llvm;

namespace slope {
namespace {

/// The name a C or C++ declaration has in the source, without scope or
/// template arguments.
std::string unqualifiedName(StringRef IRName) {
  if (!IRName.starts_with("_Z"))
    return IRName.str();
  // The demangler reads the string again on every query.
  std::string Mangled = IRName.str();
  ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Mangled.c_str()) || !Demangler.isFunction())
    return IRName.str();
  size_t Size = 0;
  char *Base = Demangler.getFunctionBaseName(nullptr, &Size);
  std::string Name = Base ? Base : IRName.str();
  std::free(Base);
  return Name;
}

/// What an argument marker asks for.
enum class Marker { Const, Dup, DupV, Out, Width, Tape, Allocated, Unknown };

/// The marker \p V is, if it is one: a global `enzyme_*` read (C passes
/// `enzyme_dup`) or its address (`&enzyme_dup`, as some Enzyme code does).
std::optional<std::pair<Marker, StringRef>> markerOf(Value *V) {
  Value *Address = V->stripPointerCasts();
  if (auto *Load = dyn_cast<LoadInst>(V))
    Address = Load->getPointerOperand()->stripPointerCasts();
  else if (auto *Cast = dyn_cast<PtrToIntOperator>(V))
    Address = Cast->getPointerOperand()->stripPointerCasts();
  auto *GV = dyn_cast<GlobalVariable>(Address);
  if (!GV || !GV->getName().starts_with("enzyme_"))
    return std::nullopt;
  Marker Kind = StringSwitch<Marker>(GV->getName())
                    .Case("enzyme_const", Marker::Const)
                    .Cases("enzyme_dup", "enzyme_dupnoneed", Marker::Dup)
                    .Case("enzyme_dupv", Marker::DupV)
                    .Case("enzyme_out", Marker::Out)
                    .Case("enzyme_width", Marker::Width)
                    .Case("enzyme_tape", Marker::Tape)
                    .Case("enzyme_allocated", Marker::Allocated)
                    .Default(Marker::Unknown);
  return std::make_pair(Kind, GV->getName());
}

/// \p V as a value of type \p To, undoing C's default argument promotions
/// and integer/pointer spellings; null when it cannot be.
Value *convertOperand(IRBuilderBase &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  if (From->isIntegerTy() && To->isPointerTy())
    return B.CreateIntToPtr(V, To);
  if (From->isPointerTy() && To->isIntegerTy())
    return B.CreatePtrToInt(V, To);
  if (From->isPointerTy() && To->isPointerTy())
    return B.CreateAddrSpaceCast(V, To);
  return nullptr;
}

class Parser {
public:
  Parser(CallBase &Call, EnzymeCall &Out, unsigned First)
      : Call(Call), Out(Out), B(&Call), Next(First) {}

  Error parse();

private:
  Error fail(const Twine &Message) {
    return make_error<DiffError>(Message.str(), &Call);
  }
  std::string argumentName(unsigned Param) const {
    return "argument " + std::to_string(Param + 1) + " of '" +
           sourceName(Out.Request.Target->getName()) + "'";
  }
  Value *take() {
    return Next < Call.arg_size() ? Call.getArgOperand(Next++) : nullptr;
  }
  Expected<Value *> takeAs(Type *To, const Twine &What);
  Error parseParameter(unsigned Param);
  Error parseWidth();
  Error parseTrailer();

  CallBase &Call;
  EnzymeCall &Out;
  IRBuilder<> B;
  unsigned Next;
  bool Forward = false;
};

Expected<Value *> Parser::takeAs(Type *To, const Twine &What) {
  Value *V = take();
  if (!V)
    return fail("missing " + What);
  if (markerOf(V))
    return fail("expected " + What + ", found the marker '" +
                markerOf(V)->second + "'");
  if (Value *Converted = convertOperand(B, V, To))
    return Converted;
  return fail(What + " has the wrong type");
}

Error Parser::parseWidth() {
  auto *N = dyn_cast_or_null<ConstantInt>(take());
  if (!N || N->isZero() || N->getZExtValue() > 64)
    return fail("enzyme_width must be followed by a constant from 1 to 64");
  if (!N->isOne() && Out.Entry != EnzymeEntry::FwdDiff &&
      Out.Entry != EnzymeEntry::AutoDiff)
    return fail("enzyme_width is supported by __enzyme_fwddiff and "
                "__enzyme_autodiff only");
  Out.Width = N->getZExtValue();
  return Error::success();
}

Error Parser::parseParameter(unsigned Param) {
  Type *ParamType = Out.Request.Target->getFunctionType()->getParamType(Param);
  std::optional<Marker> Kind;
  Value *Stride = nullptr;
  while (Next < Call.arg_size()) {
    auto Found = markerOf(Call.getArgOperand(Next));
    if (!Found)
      break;
    ++Next;
    if (Found->first == Marker::Allocated)
      return fail("enzyme_allocated (a tape the caller allocates) is not "
                  "supported: drop it and its size; Slope allocates the tape, "
                  "and __enzyme_augmentfwd returns it");
    if (Found->first == Marker::Unknown || Found->first == Marker::Tape)
      return fail("unsupported Enzyme marker '" + Found->second + "' before " +
                  argumentName(Param));
    if (Found->first == Marker::Width) {
      if (Param > 0)
        return fail("enzyme_width must come before the first argument");
      if (Error E = parseWidth())
        return E;
      continue;
    }
    Kind = Found->first;
    if (Kind == Marker::DupV) {
      Stride = take();
      if (!Stride || !Stride->getType()->isIntegerTy())
        return fail("enzyme_dupv must be followed by the byte stride of "
                    "the shadows");
    }
    break;
  }
  bool IsFP = ParamType->isFloatingPointTy();
  bool IsPointer = ParamType->isPointerTy();
  if (!Kind)
    Kind = IsPointer || (IsFP && Forward) ? Marker::Dup
           : IsFP                         ? Marker::Out
                                          : Marker::Const;
  Expected<Value *> Primal = takeAs(ParamType, argumentName(Param));
  if (!Primal)
    return Primal.takeError();
  Out.Primals.push_back(*Primal);
  Out.Shadows.emplace_back();
  DiffRequest &Req = Out.Request;
  switch (*Kind) {
  case Marker::Const:
    Req.Args.push_back(IsFP || IsPointer ? ArgActivity::Constant
                                         : ArgActivity::Inactive);
    return Error::success();
  case Marker::Out:
    if (Forward)
      return fail("enzyme_out before " + argumentName(Param) +
                  ": in forward mode an active scalar is enzyme_dup, "
                  "followed by its tangent");
    if (!IsFP)
      return fail("enzyme_out before " + argumentName(Param) +
                  ": only floating-point scalars have adjoints to return");
    Req.Args.push_back(ArgActivity::Active);
    return Error::success();
  default:
    break;
  }
  // enzyme_dup / enzyme_dupv: a shadow (or tangent) per lane.
  if (!IsPointer && !(IsFP && Forward))
    return fail("cannot duplicate " + argumentName(Param) +
                (IsFP ? ": in reverse mode a scalar is enzyme_out"
                      : ": it is neither a pointer nor floating-point"));
  Req.Args.push_back(IsFP ? ArgActivity::Active : ArgActivity::Dup);
  std::string What = "the shadow of " + argumentName(Param);
  if (Stride) {
    Expected<Value *> Base = takeAs(B.getPtrTy(), What);
    if (!Base)
      return Base.takeError();
    for (unsigned Lane = 0; Lane < Out.Width; ++Lane) {
      Value *Offset = B.CreateMul(B.CreateSExtOrTrunc(Stride, B.getInt64Ty()),
                                  B.getInt64(Lane));
      Value *Shadow = B.CreateGEP(B.getInt8Ty(), *Base, Offset);
      Out.Shadows.back().push_back(IsFP ? B.CreateLoad(ParamType, Shadow)
                                        : convertOperand(B, Shadow, ParamType));
    }
    return Error::success();
  }
  for (unsigned Lane = 0; Lane < Out.Width; ++Lane) {
    Expected<Value *> Shadow = takeAs(ParamType, What);
    if (!Shadow)
      return Shadow.takeError();
    Out.Shadows.back().push_back(*Shadow);
  }
  return Error::success();
}

/// What follows the arguments of __enzyme_reverse.
Error Parser::parseTrailer() {
  if (Out.Entry != EnzymeEntry::Reverse)
    return Error::success();
  Type *Result = Out.Request.Target->getReturnType();
  if (Result->isFloatingPointTy()) {
    Expected<Value *> Seed = takeAs(Result, "the adjoint of the result");
    if (!Seed)
      return Seed.takeError();
    Out.Seed = *Seed;
  }
  if (Next < Call.arg_size()) {
    auto Found = markerOf(Call.getArgOperand(Next));
    if (Found && Found->first == Marker::Tape)
      ++Next;
  }
  Expected<Value *> Tape =
      takeAs(B.getPtrTy(), "the tape from __enzyme_augmentfwd");
  if (!Tape)
    return Tape.takeError();
  Out.Tape = *Tape;
  return Error::success();
}

Error Parser::parse() {
  Forward = Out.Entry == EnzymeEntry::FwdDiff;
  Function &Target = *Out.Request.Target;
  if (Target.isVarArg())
    return fail("cannot differentiate '" + sourceName(Target.getName()) +
                "': variadic functions are not supported");
  for (unsigned Param = 0; Param < Target.arg_size(); ++Param)
    if (Error E = parseParameter(Param))
      return E;
  Out.Request.Width = Out.Width;
  if (Error E = parseTrailer())
    return E;
  if (Next < Call.arg_size())
    return fail("too many arguments for '" + sourceName(Target.getName()) +
                "': it takes " + std::to_string(Target.arg_size()) +
                (Target.arg_size() == 1 ? " parameter" : " parameters"));
  return Error::success();
}

} // namespace

std::optional<EnzymeEntry> enzymeEntry(const Function &F) {
  if (!F.isDeclaration())
    return std::nullopt;
  std::string Name = unqualifiedName(F.getName());
  StringRef N(Name);
  if (!N.starts_with("__enzyme_"))
    return std::nullopt;
  static constexpr std::pair<StringLiteral, EnzymeEntry> Entries[] = {
      {"__enzyme_autodiff", EnzymeEntry::AutoDiff},
      {"__enzyme_fwddiff", EnzymeEntry::FwdDiff},
      {"__enzyme_augmentfwd", EnzymeEntry::AugmentFwd},
      {"__enzyme_reverse", EnzymeEntry::Reverse},
      {"__enzyme_float", EnzymeEntry::TypeHint},
      {"__enzyme_double", EnzymeEntry::TypeHint},
      {"__enzyme_integer", EnzymeEntry::TypeHint},
      {"__enzyme_pointer", EnzymeEntry::TypeHint},
  };
  for (auto [Prefix, Entry] : Entries)
    if (N.starts_with(Prefix))
      return Entry;
  return EnzymeEntry::Unsupported;
}

DiffMode enzymeMode(EnzymeEntry Entry) {
  return Entry == EnzymeEntry::FwdDiff ? DiffMode::Forward : DiffMode::Reverse;
}

/// The operand holding the function: the first, after an sret pointer.
static unsigned functionOperand(CallBase &Call) {
  return Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet) ? 1
                                                                           : 0;
}

/// The function \p V is: a constant, or at -O0 the result of a call that
/// returns the same function on every path (a lambda's conversion to a
/// function pointer).
static Function *knownFunction(Value *V) {
  V = V->stripPointerCastsAndAliases();
  if (auto *F = dyn_cast<Function>(V))
    return F;
  auto *Call = dyn_cast<CallBase>(V);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || Callee->isDeclaration())
    return nullptr;
  Function *Returned = nullptr;
  for (BasicBlock &BB : *Callee)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      auto *F = Ret->getReturnValue()
                    ? dyn_cast<Function>(
                          Ret->getReturnValue()->stripPointerCastsAndAliases())
                    : nullptr;
      if (!F || (Returned && Returned != F))
        return nullptr;
      Returned = F;
    }
  return Returned;
}

/// At -O0 a function pointer held in a local variable is loaded from its
/// stack slot: the function, when the slot is written exactly once, with it.
static Function *storedFunction(LoadInst &Load) {
  auto *Slot = dyn_cast<AllocaInst>(Load.getPointerOperand());
  if (!Slot)
    return nullptr;
  Function *Stored = nullptr;
  for (User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getPointerOperand() != Slot || Stored)
      return nullptr;
    Stored = knownFunction(Store->getValueOperand());
    if (!Stored)
      return nullptr;
  }
  return Stored;
}

Function *enzymeTarget(CallBase &Call) {
  unsigned I = functionOperand(Call);
  if (I >= Call.arg_size())
    return nullptr;
  Value *Operand = Call.getArgOperand(I)->stripPointerCastsAndAliases();
  if (auto *Load = dyn_cast<LoadInst>(Operand))
    return storedFunction(*Load);
  return knownFunction(Operand);
}

Expected<EnzymeCall> parseEnzymeCall(CallBase &Call, EnzymeEntry Entry) {
  EnzymeCall Out;
  Out.Call = &Call;
  Out.Entry = Entry;
  Out.Request.Mode = enzymeMode(Entry);
  unsigned FnIndex = functionOperand(Call);
  if (FnIndex == 1) {
    Out.ResultMemory = Call.getArgOperand(0);
    Out.ResultType = Call.getParamStructRetType(0);
  } else {
    Out.ResultType = Call.getType();
  }
  Out.Request.Target = enzymeTarget(Call);
  if (!Out.Request.Target)
    return make_error<DiffError>(
        "the function to differentiate is not known at compile time", &Call);
  Parser P(Call, Out, FnIndex + 1);
  if (Error E = P.parse())
    return std::move(E);
  return std::move(Out);
}

} // namespace slope
