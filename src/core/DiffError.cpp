//===- DiffError.cpp ------------------------------------------------------===//
#include "DiffError.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace slope {

char DiffError::ID = 0;

DiffError::DiffError(std::string Message, const Instruction *At)
    : Message(std::move(Message)) {
  if (At)
    Location = DebugLoc(userLocation(At->getDebugLoc().get()));
}

DILocation *userLocation(DILocation *Loc) {
  auto InSlope = [](const DILocation *L) {
    const DISubprogram *Sub = L->getScope()->getSubprogram();
    return Sub && Sub->getLinkageName().starts_with("_ZN5slope");
  };
  while (Loc && InSlope(Loc) && Loc->getInlinedAt())
    Loc = Loc->getInlinedAt();
  return Loc;
}

/// The target inside the name of an adapter the API headers made for it
/// (slope/detail/adapter.hpp): "slope::detail::Adapter<&T, ...>::call(...)"
/// names T, which is what the user wrote.
static std::string adaptedTarget(StringRef Name) {
  StringRef Prefix = "slope::detail::Adapter<&";
  if (!Name.starts_with(Prefix))
    return Name.str();
  StringRef Rest = Name.drop_front(Prefix.size());
  int Depth = 0;
  for (size_t I = 0; I < Rest.size(); ++I) {
    char C = Rest[I];
    if (C == '(' || C == '<')
      ++Depth;
    else if (C == ')' || C == '>')
      --Depth;
    else if (C == ',' && Depth == 0)
      return Rest.take_front(I).str();
  }
  return Name.str();
}

std::string sourceName(StringRef IRName) {
  return adaptedTarget(demangle(IRName.split(".slope.").first));
}

std::string describe(const Instruction &I) {
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (Call->isInlineAsm())
      return "inline assembly";
    if (const Function *Callee = Call->getCalledFunction())
      return "call to '" + sourceName(Callee->getName()) + "'";
    return "indirect call";
  }
  return ("'" + Twine(I.getOpcodeName()) + "' instruction").str();
}

Error unsupported(const Instruction &I, StringRef Why) {
  std::string Message = "cannot differentiate " + describe(I);
  if (const Function *F = I.getFunction())
    Message += " in '" + sourceName(F->getName()) + "'";
  if (!Why.empty())
    Message += ": " + Why.str();
  return make_error<DiffError>(std::move(Message), &I);
}

} // namespace slope
