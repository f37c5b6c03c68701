//===- MarkerCall.cpp -----------------------------------------------------===//
#include "MarkerCall.h"
#include "DiffError.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

using namespace llvm;

namespace slope {

// Mangled prefixes of slope::detail::reverse_marker<...> / forward_marker.
static constexpr StringLiteral ReversePrefix =
    "_ZN5slope6detail14reverse_markerI";
static constexpr StringLiteral ForwardPrefix =
    "_ZN5slope6detail14forward_markerI";

std::optional<DiffMode> markerMode(const Function &F) {
  if (!F.isDeclaration())
    return std::nullopt;
  if (F.getName().starts_with(ReversePrefix))
    return DiffMode::Reverse;
  if (F.getName().starts_with(ForwardPrefix))
    return DiffMode::Forward;
  return std::nullopt;
}

static Expected<StringRef> readDescriptor(Value *V, CallBase &Call) {
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  // (CUDA device copies are externally_initialized; the header made them.)
  if (GV && GV->hasInitializer())
    if (auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer()))
      if (Data->isCString())
        return Data->getAsCString();
  return make_error<DiffError>("the activity descriptor of a slope API call "
                               "is not a constant string",
                               &Call);
}

Expected<MarkerCall> parseMarker(CallBase &Call, DiffMode Mode) {
  MarkerCall Marker;
  Marker.Call = &Call;
  DiffRequest &Req = Marker.Request;
  Req.Mode = Mode;
  Req.Target =
      dyn_cast<Function>(Call.getArgOperand(0)->stripPointerCastsAndAliases());
  if (!Req.Target)
    return make_error<DiffError>(
        "the function to differentiate is not known at compile time", &Call);

  Expected<StringRef> Descriptor = readDescriptor(Call.getArgOperand(1), Call);
  if (!Descriptor)
    return Descriptor.takeError();
  // "kinds" or, in vector mode, "kinds/NN" (the number of lanes).
  auto [Kinds, Lanes] = Descriptor->split('/');
  if (!DiffRequest::parseActivity(Kinds, Req.Args) ||
      (!Lanes.empty() &&
       (Lanes.getAsInteger(10, Req.Width) || Req.Width == 0 || Req.Width > 64)))
    return make_error<DiffError>(
        "malformed activity descriptor '" + Descriptor->str() + "'", &Call);

  unsigned Fixed = Mode == DiffMode::Reverse ? 3 : 4;
  unsigned N = Req.Args.size();
  FunctionType *TargetType = Req.Target->getFunctionType();
  unsigned Operands = Fixed + (1 + Req.Width) * N;
  bool HasExtents =
      Mode == DiffMode::Reverse && N > 0 && Call.arg_size() == Operands + N;
  if ((Call.arg_size() != Operands && !HasExtents) ||
      TargetType->getNumParams() != N)
    return make_error<DiffError>(
        "cannot differentiate '" + sourceName(Req.Target->getName()) +
            "': its parameters are passed in a way Slope does not support "
            "yet (aggregates by value, variadic arguments)",
        &Call);
  Marker.ResultOut = Call.getArgOperand(2);
  if (Mode == DiffMode::Forward)
    Marker.TangentOut = Call.getArgOperand(3);
  for (unsigned I = 0; I < N; ++I) {
    Value *Primal = Call.getArgOperand(Fixed + I);
    if (Primal->getType() != TargetType->getParamType(I))
      return make_error<DiffError>(
          "cannot differentiate '" + sourceName(Req.Target->getName()) +
              "': argument " + std::to_string(I + 1) +
              " is passed in a way Slope does not support yet",
          &Call);
    Marker.Primals.push_back(Primal);
  }
  for (unsigned I = 0; I < Req.Width * N; ++I)
    Marker.Shadows.push_back(Call.getArgOperand(Fixed + N + I));
  if (HasExtents)
    for (unsigned I = 0; I < N; ++I) {
      Value *Extent = Call.getArgOperand(Operands + I);
      if (!Extent->getType()->isIntegerTy())
        return make_error<DiffError>(
            "the extent of argument " + std::to_string(I + 1) +
                " of a slope API call is not an integer",
            &Call);
      Marker.Extents.push_back(Extent);
    }
  return Marker;
}

} // namespace slope
