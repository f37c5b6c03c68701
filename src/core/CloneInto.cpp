//===- CloneInto.cpp ------------------------------------------------------===//
#include "CloneInto.h"
#include "DiffError.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace slope {

Function *cloneIntoNewSignature(Function &Primal, FunctionType *Type,
                                StringRef Name, ValueToValueMapTy &Map) {
  Function *New = Function::Create(Type, GlobalValue::InternalLinkage, Name,
                                   Primal.getParent());
  for (Argument &A : Primal.args()) {
    Argument *Copy = New->getArg(A.getArgNo());
    Copy->setName(A.getName());
    Map[&A] = Copy;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(New, &Primal, Map,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  // Parameter and return attributes describe the primal signature; keep
  // only function attributes that still hold for the derivative.
  AttributeList Attrs = Primal.getAttributes();
  New->setAttributes(AttributeList::get(New->getContext(), Attrs.getFnAttrs(),
                                        AttributeSet(), {}));
  for (Attribute::AttrKind Kind : {Attribute::OptimizeNone, Attribute::NoInline,
                                   Attribute::Memory, Attribute::AlwaysInline})
    New->removeFnAttr(Kind);
  // A restrict-qualified pointer stays one in the derivative: the shadows
  // and the tape are other memory. Alias analysis needs it to let the
  // reverse sweep load values again instead of taping them.
  // Slope's own marks on parameters (a reverse part's record) stay too.
  for (Argument &A : Primal.args()) {
    if (A.hasNoAliasAttr())
      New->getArg(A.getArgNo())->addAttr(Attribute::NoAlias);
    for (Attribute Mark : Attrs.getParamAttrs(A.getArgNo()))
      if (Mark.isStringAttribute())
        New->getArg(A.getArgNo())->addAttr(Mark);
  }
  // The primal may have been given fastcc (-O2 does that to internal
  // functions); callers of the derivative use the C convention.
  New->setCallingConv(CallingConv::C);
  New->setName(Name);
  EliminateUnreachableBlocks(*New);
  return New;
}

void discardGenerated(Function &F) {
  F.replaceAllUsesWith(PoisonValue::get(F.getType()));
  F.eraseFromParent();
}

Error verifyGenerated(Function &F) {
  std::string Message;
  raw_string_ostream OS(Message);
  if (!verifyFunction(F, &OS))
    return Error::success();
  return make_error<DiffError>("internal error: Slope generated invalid IR "
                               "for '" +
                               sourceName(F.getName()) + "': " + OS.str());
}

} // namespace slope
