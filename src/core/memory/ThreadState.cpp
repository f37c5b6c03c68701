//===- ThreadState.cpp ----------------------------------------------------===//
#include "ThreadState.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

GlobalVariable *perThreadGlobal(Module &M, StringRef Name, Type *Ty) {
  if (GlobalVariable *Existing = M.getNamedGlobal(Name))
    return Existing;
  auto *G = new GlobalVariable(M, Ty, false, GlobalValue::LinkOnceODRLinkage,
                               Constant::getNullValue(Ty), Name, nullptr,
                               GlobalValue::GeneralDynamicTLSModel);
  G->setVisibility(GlobalValue::HiddenVisibility);
  return G;
}

void callAtThreadExit(IRBuilderBase &B, Function *Release) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy();
  // glibc's hook behind C++ thread_local destructors; __dso_handle ties
  // the call to this program or library.
  FunctionCallee AtExit = M.getOrInsertFunction(
      "__cxa_thread_atexit_impl",
      FunctionType::get(B.getInt32Ty(), {Ptr, Ptr, Ptr}, false));
  Constant *Handle = M.getOrInsertGlobal("__dso_handle", B.getInt8Ty());
  if (auto *G = dyn_cast<GlobalVariable>(Handle))
    G->setVisibility(GlobalValue::HiddenVisibility);
  B.CreateCall(AtExit, {Release, Constant::getNullValue(Ptr), Handle});
}

} // namespace slope
