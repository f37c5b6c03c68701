//===- CallSite.cpp -------------------------------------------------------===//
#include "CallSite.h"
#include "Diagnostics.h"
#include "DiffError.h"
#include "SourceTypes.h"

using namespace llvm;

namespace slope {

Value *callInPlaceOf(IRBuilderBase &B, CallBase &Request, Function &Callee,
                     ArrayRef<Value *> Args) {
  auto *Invoke = dyn_cast<InvokeInst>(&Request);
  if (!Invoke)
    return B.CreateCall(&Callee, Args);
  BasicBlock *Normal = Invoke->getNormalDest();
  BasicBlock *Results = BasicBlock::Create(B.getContext(), "slope.results",
                                           Normal->getParent(), Normal);
  Value *Result =
      B.CreateInvoke(&Callee, Results, Invoke->getUnwindDest(), Args);
  Normal->replacePhiUsesWith(Invoke->getParent(), Results);
  B.SetInsertPoint(BranchInst::Create(Normal, Results));
  return Result;
}

void reportFailure(CallBase &Request, const Function *Target, DiffMode Mode,
                   Error E) {
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &Info) {
    DiagnosticReport Report;
    Report.TargetName = Target ? Target->getName().str() : "";
    Report.Mode = Mode;
    Report.Message = Info.message();
    if (Info.isA<DiffError>())
      Report.Location = static_cast<const DiffError &>(Info).location();
    Report.Request = &Request;
    report(Report);
  });
}

void addSourceElementTypes(DiffRequest &Req) {
  Req.ArgVectorData.clear();
  for (unsigned I = 0; I < Req.Args.size(); ++I) {
    std::vector<uint64_t> Offsets = sourceVectorData(Req.Target->getName(), I);
    Req.ArgVectorData.emplace_back(Offsets.begin(), Offsets.end());
  }
  Req.ArgElementTypes.clear();
  for (auto [I, Activity] : enumerate(Req.Args))
    Req.ArgElementTypes.push_back(
        Activity == ArgActivity::Dup
            ? sourcePointeeElementType(Req.Target->getName(), I,
                                       Req.Target->getContext())
            : nullptr);
}

} // namespace slope
