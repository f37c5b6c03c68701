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
CopyLayoutProvider &copyLayouts() {
  static CopyLayoutProvider Provider;
  return Provider;
}
} // namespace

void setCopyLayoutProvider(CopyLayoutProvider Provider) {
  copyLayouts() = std::move(Provider);
}

std::optional<SourceRecordLayout>
sourceCopyLayout(llvm::StringRef Function, unsigned Line, unsigned Column) {
  if (!copyLayouts())
    return std::nullopt;
  return copyLayouts()(Function, Line, Column);
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
