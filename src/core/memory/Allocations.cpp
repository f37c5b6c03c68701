//===- Allocations.cpp ----------------------------------------------------===//
#include "Allocations.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

/// The C or C++ library function \p Call calls, if TLI knows it.
static std::optional<LibFunc> libFuncOf(const CallBase &Call,
                                        const TargetLibraryInfo &TLI) {
  const Function *Callee = Call.getCalledFunction();
  LibFunc Func;
  if (!Callee || !TLI.getLibFunc(*Callee, Func))
    return std::nullopt;
  return Func;
}

std::optional<Allocation> asAllocation(const CallBase &Call,
                                       const TargetLibraryInfo &TLI) {
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return std::nullopt;
  switch (*Func) {
  case LibFunc_malloc:
  case LibFunc_Znwm:
  case LibFunc_Znam:
  case LibFunc_ZnwmRKSt9nothrow_t:
  case LibFunc_ZnamRKSt9nothrow_t:
    return Allocation{Call.getArgOperand(0), false};
  case LibFunc_calloc:
    return Allocation{nullptr, true};
  case LibFunc_aligned_alloc:
    return Allocation{Call.getArgOperand(1), false, Call.getArgOperand(0)};
  case LibFunc_ZnwmSt11align_val_t:
  case LibFunc_ZnamSt11align_val_t:
  case LibFunc_ZnwmSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZnamSt11align_val_tRKSt9nothrow_t:
    return Allocation{Call.getArgOperand(0), false, Call.getArgOperand(1)};
  default:
    return std::nullopt;
  }
}

std::optional<std::pair<Value *, Value *>>
asReallocation(const CallBase &Call, const TargetLibraryInfo &TLI) {
  if (libFuncOf(Call, TLI) != LibFunc_realloc)
    return std::nullopt;
  return std::make_pair(Call.getArgOperand(0), Call.getArgOperand(1));
}

Value *releasedPointer(const CallBase &Call, const TargetLibraryInfo &TLI) {
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return nullptr;
  switch (*Func) {
  case LibFunc_free:
  case LibFunc_ZdlPv:
  case LibFunc_ZdaPv:
  case LibFunc_ZdlPvm:
  case LibFunc_ZdaPvm:
  case LibFunc_ZdlPvSt11align_val_t:
  case LibFunc_ZdaPvSt11align_val_t:
  case LibFunc_ZdlPvmSt11align_val_t:
  case LibFunc_ZdaPvmSt11align_val_t:
  case LibFunc_ZdlPvSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZdaPvSt11align_val_tRKSt9nothrow_t:
  case LibFunc_ZdlPvRKSt9nothrow_t:
  case LibFunc_ZdaPvRKSt9nothrow_t:
    return Call.getArgOperand(0);
  default:
    return nullptr;
  }
}

Value *releasedSize(const CallBase &Call, const TargetLibraryInfo &TLI) {
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return nullptr;
  switch (*Func) {
  case LibFunc_ZdlPvm:
  case LibFunc_ZdaPvm:
  case LibFunc_ZdlPvmSt11align_val_t:
  case LibFunc_ZdaPvmSt11align_val_t:
    return Call.getArgOperand(1);
  default:
    return nullptr;
  }
}

std::optional<Release> releaseOfAllocation(const CallBase &Call,
                                           const TargetLibraryInfo &TLI) {
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return std::nullopt;
  switch (*Func) {
  case LibFunc_malloc:
  case LibFunc_calloc:
  case LibFunc_aligned_alloc:
    return Release{"free"};
  case LibFunc_Znwm:
  case LibFunc_ZnwmRKSt9nothrow_t:
    return Release{"_ZdlPv"};
  case LibFunc_Znam:
  case LibFunc_ZnamRKSt9nothrow_t:
    return Release{"_ZdaPv"};
  case LibFunc_ZnwmSt11align_val_t:
  case LibFunc_ZnwmSt11align_val_tRKSt9nothrow_t:
    return Release{"_ZdlPvSt11align_val_t", Call.getArgOperand(1)};
  case LibFunc_ZnamSt11align_val_t:
  case LibFunc_ZnamSt11align_val_tRKSt9nothrow_t:
    return Release{"_ZdaPvSt11align_val_t", Call.getArgOperand(1)};
  default:
    return std::nullopt;
  }
}

std::optional<Release> unsizedRelease(const CallBase &Call,
                                      const TargetLibraryInfo &TLI) {
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return std::nullopt;
  switch (*Func) {
  case LibFunc_free:
    return Release{"free"};
  case LibFunc_ZdlPv:
  case LibFunc_ZdlPvm:
  case LibFunc_ZdlPvRKSt9nothrow_t:
    return Release{"_ZdlPv"};
  case LibFunc_ZdaPv:
  case LibFunc_ZdaPvm:
  case LibFunc_ZdaPvRKSt9nothrow_t:
    return Release{"_ZdaPv"};
  case LibFunc_ZdlPvSt11align_val_t:
  case LibFunc_ZdlPvSt11align_val_tRKSt9nothrow_t:
    return Release{"_ZdlPvSt11align_val_t", Call.getArgOperand(1)};
  case LibFunc_ZdlPvmSt11align_val_t:
    return Release{"_ZdlPvSt11align_val_t", Call.getArgOperand(2)};
  case LibFunc_ZdaPvSt11align_val_t:
  case LibFunc_ZdaPvSt11align_val_tRKSt9nothrow_t:
    return Release{"_ZdaPvSt11align_val_t", Call.getArgOperand(1)};
  case LibFunc_ZdaPvmSt11align_val_t:
    return Release{"_ZdaPvSt11align_val_t", Call.getArgOperand(2)};
  default:
    return std::nullopt;
  }
}

void emitRelease(IRBuilderBase &B, const Release &How, Value *Pointer) {
  Module &M = *B.GetInsertBlock()->getModule();
  SmallVector<Type *, 2> Params = {Pointer->getType()};
  SmallVector<Value *, 2> Args = {Pointer};
  if (How.Alignment) {
    Params.push_back(How.Alignment->getType());
    Args.push_back(How.Alignment);
  }
  FunctionCallee Callee = M.getOrInsertFunction(
      How.Callee, FunctionType::get(B.getVoidTy(), Params, false));
  B.CreateCall(Callee, Args);
}

} // namespace slope
