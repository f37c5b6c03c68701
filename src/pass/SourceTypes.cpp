//===- SourceTypes.cpp ----------------------------------------------------===//
#include "SourceTypes.h"

namespace slope {
namespace {
PointeeTypeProvider &provider() {
  static PointeeTypeProvider Provider;
  return Provider;
}
} // namespace

void setPointeeTypeProvider(PointeeTypeProvider Provider) {
  provider() = std::move(Provider);
}

llvm::Type *sourcePointeeElementType(llvm::StringRef Target, unsigned Arg,
                                     llvm::LLVMContext &Context) {
  return provider() ? provider()(Target, Arg, Context) : nullptr;
}

namespace {
InactivityProvider &inactivity() {
  static InactivityProvider Provider;
  return Provider;
}
} // namespace

void setInactivityProvider(InactivityProvider Provider) {
  inactivity() = std::move(Provider);
}

bool isSourceInactive(llvm::StringRef Function) {
  return inactivity() && inactivity()(Function);
}

} // namespace slope
