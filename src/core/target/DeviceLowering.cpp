//===- DeviceLowering.cpp -------------------------------------------------===//
#include "DeviceLowering.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace slope {
namespace {

/// libdevice's name (for double; float adds "f") of what an intrinsic
/// computes, when the backend has no instruction for it.
StringRef libDeviceName(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
    return "__nv_sin";
  case Intrinsic::cos:
    return "__nv_cos";
  case Intrinsic::tan:
    return "__nv_tan";
  case Intrinsic::exp:
    return "__nv_exp";
  case Intrinsic::exp2:
    return "__nv_exp2";
  case Intrinsic::exp10:
    return "__nv_exp10";
  case Intrinsic::ldexp:
    return "__nv_ldexp";
  case Intrinsic::log:
    return "__nv_log";
  case Intrinsic::log2:
    return "__nv_log2";
  case Intrinsic::log10:
    return "__nv_log10";
  case Intrinsic::pow:
    return "__nv_pow";
  case Intrinsic::powi:
    return "__nv_powi";
  case Intrinsic::sinh:
    return "__nv_sinh";
  case Intrinsic::cosh:
    return "__nv_cosh";
  case Intrinsic::tanh:
    return "__nv_tanh";
  case Intrinsic::asin:
    return "__nv_asin";
  case Intrinsic::acos:
    return "__nv_acos";
  case Intrinsic::atan:
    return "__nv_atan";
  default:
    return "";
  }
}

} // namespace

void lowerForDevice(Function &F) {
  if (!Triple(F.getParent()->getTargetTriple()).isNVPTX())
    return;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<IntrinsicInst>(&I);
    if (!Call)
      continue;
    StringRef Base = libDeviceName(Call->getIntrinsicID());
    Type *Ty = Call->getType();
    if (Base.empty() || !(Ty->isFloatTy() || Ty->isDoubleTy()))
      continue;
    SmallVector<Type *, 2> Params;
    for (Value *Arg : Call->args())
      Params.push_back(Arg->getType());
    FunctionCallee LibDevice = F.getParent()->getOrInsertFunction(
        (Base + (Ty->isFloatTy() ? "f" : "")).str(),
        FunctionType::get(Ty, Params, false));
    SmallVector<Value *, 2> Args(Call->args());
    CallInst *New = CallInst::Create(LibDevice, Args, "", Call->getIterator());
    New->takeName(Call);
    New->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
}

} // namespace slope
