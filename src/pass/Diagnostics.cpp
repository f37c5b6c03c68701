//===- Diagnostics.cpp ----------------------------------------------------===//
#include "Diagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace slope {
namespace {
DiagnosticHandler &handler() {
  static DiagnosticHandler Handler;
  return Handler;
}
} // namespace

void setDiagnosticHandler(DiagnosticHandler Handler) {
  handler() = std::move(Handler);
}

void report(const DiagnosticReport &Report) {
  if (handler() && handler()(Report))
    return;
  const Instruction &At = *Report.Request;
  DebugLoc Loc = Report.Location ? Report.Location : At.getDebugLoc();
  At.getContext().diagnose(DiagnosticInfoUnsupported(
      *At.getFunction(), "slope: " + Report.Message, Loc));
}

} // namespace slope
