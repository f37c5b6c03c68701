//===- SharedMemory.cpp ---------------------------------------------------===//
#include "SharedMemory.h"
#include "Target.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace slope {

constexpr unsigned SharedAddressSpace = 3;

bool isSharedMemory(const GlobalVariable &GV) {
  return targetFacts(*GV.getParent()).HasSharedMemory &&
         GV.getAddressSpace() == SharedAddressSpace;
}

void localizeSharedMemory(Function &F) {
  SmallVector<Constant *, 4> Shared;
  for (GlobalVariable &GV : F.getParent()->globals())
    if (isSharedMemory(GV))
      Shared.push_back(&GV);
  if (!Shared.empty())
    convertUsersOfConstantsToInstructions(Shared, &F);
}

GlobalVariable *sharedShadow(GlobalVariable &GV) {
  Module &M = *GV.getParent();
  std::string Name = (GV.getName() + ".slope.shadow").str();
  if (GlobalVariable *Existing = M.getNamedGlobal(Name))
    return Existing;
  auto *Shadow = new GlobalVariable(
      M, GV.getValueType(), /*isConstant=*/false, GlobalValue::InternalLinkage,
      UndefValue::get(GV.getValueType()), Name, nullptr,
      GlobalValue::NotThreadLocal, SharedAddressSpace);
  Shadow->setAlignment(GV.getAlign());
  return Shadow;
}

void clearSharedShadows(IRBuilderBase &B, ArrayRef<GlobalVariable *> Shadows) {
  if (Shadows.empty())
    return;
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  for (GlobalVariable *Shadow : Shadows)
    B.CreateMemSet(Shadow, B.getInt8(0),
                   DL.getTypeAllocSize(Shadow->getValueType()),
                   Shadow->getAlign());
  Triple T(B.GetInsertBlock()->getModule()->getTargetTriple());
  B.CreateIntrinsic(T.isNVPTX() ? Intrinsic::nvvm_barrier0
                                : Intrinsic::amdgcn_s_barrier,
                    {}, {});
}

} // namespace slope
