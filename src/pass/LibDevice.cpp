//===- LibDevice.cpp ------------------------------------------------------===//
#include "LibDevice.h"

#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

namespace slope {
namespace {

std::vector<std::string> &builtinBitcodeFiles() {
  static std::vector<std::string> Files;
  return Files;
}

bool missesLibDevice(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_") && !F.use_empty())
      return true;
  return false;
}

} // namespace

void setBuiltinBitcodeFiles(std::vector<std::string> Files) {
  builtinBitcodeFiles() = std::move(Files);
}

std::string linkMissingLibDevice(Module &M) {
  if (!missesLibDevice(M))
    return "";
  for (const std::string &File : builtinBitcodeFiles()) {
    SMDiagnostic Diagnostic;
    std::unique_ptr<Module> Library =
        parseIRFile(File, Diagnostic, M.getContext());
    if (!Library)
      return "cannot read '" + File + "': " + Diagnostic.getMessage().str();
    Library->setDataLayout(M.getDataLayout());
    Library->setTargetTriple(M.getTargetTriple());
    // Only what is missing comes in, and it stays private to this module.
    if (Linker::linkModules(
            M, std::move(Library), Linker::LinkOnlyNeeded,
            [](Module &Linked, const StringSet<> &Added) {
              internalizeModule(Linked, [&Added](const GlobalValue &GV) {
                return !GV.hasName() || !Added.contains(GV.getName());
              });
            }))
      return "cannot link '" + File + "'";
    if (!missesLibDevice(M))
      return "";
  }
  return "";
}

} // namespace slope
