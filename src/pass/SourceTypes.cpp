//===- SourceTypes.cpp ----------------------------------------------------===//
#include "SourceTypes.h"

namespace slope {
namespace {
/// The one provider of each kind the clang plugin installs (none when the
/// pass runs without it, as under opt).
template <class Provider> Provider &installed() {
  static Provider TheProvider;
  return TheProvider;
}
} // namespace

void setPointeeTypeProvider(PointeeTypeProvider Provider) {
  installed<PointeeTypeProvider>() = std::move(Provider);
}

llvm::Type *sourcePointeeElementType(llvm::StringRef Target, unsigned Arg,
                                     llvm::LLVMContext &Context) {
  auto &Provider = installed<PointeeTypeProvider>();
  return Provider ? Provider(Target, Arg, Context) : nullptr;
}

void setCopyLayoutProvider(CopyLayoutProvider Provider) {
  installed<CopyLayoutProvider>() = std::move(Provider);
}

std::optional<SourceRecordLayout>
sourceCopyLayout(llvm::StringRef Function, unsigned Line, unsigned Column) {
  auto &Provider = installed<CopyLayoutProvider>();
  return Provider ? Provider(Function, Line, Column) : std::nullopt;
}

void setVectorDataProvider(VectorDataProvider Provider) {
  installed<VectorDataProvider>() = std::move(Provider);
}

std::vector<uint64_t> sourceVectorData(llvm::StringRef Target, unsigned Arg) {
  auto &Provider = installed<VectorDataProvider>();
  return Provider ? Provider(Target, Arg) : std::vector<uint64_t>();
}

void setInactivityProvider(InactivityProvider Provider) {
  installed<InactivityProvider>() = std::move(Provider);
}

bool isSourceInactive(llvm::StringRef Function) {
  auto &Provider = installed<InactivityProvider>();
  return Provider && Provider(Function);
}

} // namespace slope
