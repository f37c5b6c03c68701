//===- DiffRequest.cpp ----------------------------------------------------===//
#include "DiffRequest.h"

using namespace llvm;

namespace slope {

bool DiffRequest::parseActivity(StringRef Descriptor,
                                SmallVectorImpl<ArgActivity> &Out) {
  for (char C : Descriptor) {
    switch (C) {
    case 'A':
    case 'C':
    case 'I':
    case 'D':
      Out.push_back(static_cast<ArgActivity>(C));
      break;
    default:
      return false;
    }
  }
  return true;
}

std::string DiffRequest::activityString() const {
  std::string S;
  for (ArgActivity A : Args)
    S.push_back(static_cast<char>(A));
  return S;
}

std::string DiffRequest::derivativeName() const {
  std::string Name =
      (Target->getName() + ".slope." + modeName(Mode) + "." + activityString())
          .str();
  if (Width > 1)
    Name += ".w" + std::to_string(Width);
  if (Split)
    Name += ".split";
  if (DisjointPointers)
    Name += ".disjoint";
  if (ResultUnused)
    Name += ".noresult";
  return Name + elementTypeSuffix();
}

std::string DiffRequest::elementTypeSuffix() const {
  if (!ElementTypesFromCaller ||
      none_of(ArgElementTypes, [](Type *T) { return T != nullptr; }))
    return "";
  std::string Suffix = ".e";
  for (Type *T : ArgElementTypes)
    Suffix.push_back(!T                ? '_'
                     : T->isDoubleTy() ? 'd'
                     : T->isFloatTy()  ? 'f'
                                       : 'o');
  return Suffix;
}

SmallVector<Value *, 16>
derivativeArguments(const DiffRequest &Req, ArrayRef<Value *> Primals,
                    function_ref<Value *(unsigned, unsigned)> ShadowOf) {
  SmallVector<Value *, 16> Args(Primals.begin(), Primals.end());
  for (unsigned Lane = 0; Lane < Req.Width; ++Lane)
    for (unsigned I = 0; I < Req.Args.size(); ++I)
      if (Req.takesShadow(I))
        Args.push_back(ShadowOf(Lane, I));
  return Args;
}

StringRef modeName(DiffMode Mode) {
  return Mode == DiffMode::Reverse ? "reverse" : "forward";
}

} // namespace slope
