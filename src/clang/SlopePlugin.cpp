//===- SlopePlugin.cpp - SlopeClang.so: the one flag a user adds ----------===//
//
// Loaded with -fplugin=SlopeClang.so (or -Xclang -load -Xclang ...), it
//  - defines the attribute slope.hpp tests to know the plugin is present,
//  - checks every slope API call in the AST and remembers where it is,
//  - adds the IR pass to clang's pipeline at every optimization level, and
//  - shows the pass's errors at the API calls that requested them.
//
//===----------------------------------------------------------------------===//
#include "ApiCalls.h"
#include "CopyTypes.h"
#include "Diagnostics.h"
#include "DiffError.h"
#include "LibDevice.h"
#include "ReverseVerify.h"
#include "SlopePass.h"
#include "SourceTypes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/Sema.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace clang;

namespace slope {
namespace {

/// `__has_attribute(slope_plugin)` is how slope.hpp knows the plugin runs.
struct PluginPresentAttr : ParsedAttrInfo {
  PluginPresentAttr() {
    static constexpr Spelling Spellings[] = {
        {ParsedAttr::AS_GNU, "slope_plugin"}};
    this->Spellings = Spellings;
  }
};

/// SLOPE_INACTIVE: `__attribute__((slope_inactive))` on a function, kept
/// as an annotation the API-call visitor collects. Enzyme's spelling
/// `enzyme_inactive` means the same; on a global variable it changes
/// nothing (Slope never differentiates with respect to globals).
struct InactiveAttr : ParsedAttrInfo {
  InactiveAttr() {
    static constexpr Spelling Spellings[] = {
        {ParsedAttr::AS_GNU, "slope_inactive"},
        {ParsedAttr::AS_GNU, "enzyme_inactive"}};
    this->Spellings = Spellings;
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) ||
        (isa<VarDecl>(D) && Attr.getAttrName()->getName() == "enzyme_inactive"))
      return true;
    S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute() << "functions";
    return false;
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (!isa<FunctionDecl>(D))
      return AttributeApplied;
    D->addAttr(AnnotateAttr::Create(S.Context, "slope_inactive", nullptr, 0,
                                    Attr.getRange()));
    return AttributeApplied;
  }
};

/// Enzyme attributes that change a derivative and that Slope does not
/// implement. Ignored with clang's "unknown attribute" warning, they would
/// give a wrong gradient: each is an error instead.
struct UnsupportedEnzymeAttr : ParsedAttrInfo {
  UnsupportedEnzymeAttr() {
    static constexpr Spelling Spellings[] = {
        {ParsedAttr::AS_GNU, "enzyme_function_like"},
        {ParsedAttr::AS_GNU, "enzyme_allocation_like"},
        {ParsedAttr::AS_GNU, "enzyme_deallocation_like"},
        {ParsedAttr::AS_GNU, "enzyme_inactive_noblock"},
        {ParsedAttr::AS_GNU, "enzyme_nofree"},
        {ParsedAttr::AS_GNU, "enzyme_no_escaping_allocation"},
        {ParsedAttr::AS_GNU, "enzyme_shouldrecompute"},
        {ParsedAttr::AS_GNU, "enzyme_sparse_accumulate"}};
    this->Spellings = Spellings;
    OptArgs = 15;
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    // Clang may hand one attribute over more than once.
    static std::set<unsigned> Reported;
    if (!Reported.insert(Attr.getLoc().getRawEncoding()).second)
      return AttributeNotApplied;
    DiagnosticsEngine &Diags = S.getDiagnostics();
    Diags.Report(Attr.getLoc(),
                 Diags.getCustomDiagID(
                     DiagnosticsEngine::Error,
                     "slope: Enzyme's attribute '%0' is not supported: "
                     "Slope would differentiate the function as if it were "
                     "absent; give the function a SLOPE_CUSTOM_DERIVATIVE "
                     "(or __enzyme_register_gradient/derivative) or mark it "
                     "SLOPE_INACTIVE instead"))
        << Attr.getAttrName()->getName();
    return AttributeNotApplied;
  }
};

/// -flto: the link sees every file. (-flto=thin does not: each module is
/// optimized apart, importing only small callees, never a target Slope is
/// asked to differentiate, so that is an error at the compile step.)
bool fullLinkTimeOptimization(const CompilerInstance &CI) {
  return CI.getCodeGenOpts().PrepareForLTO &&
         !CI.getCodeGenOpts().PrepareForThinLTO;
}

class SlopeConsumer : public ASTConsumer {
public:
  explicit SlopeConsumer(CompilerInstance &CI) : CI(CI) {
    setDiagnosticHandler(
        [this](const DiagnosticReport &Report) { return show(Report); });
    setPointeeTypeProvider(
        [this](llvm::StringRef Target, unsigned Arg, llvm::LLVMContext &Ctx) {
          return pointeeType(Target, Arg, Ctx);
        });
    setInactivityProvider([this](llvm::StringRef Function) {
      return Facts.Inactive.count(Function.str()) != 0;
    });
    setVectorDataProvider([this](llvm::StringRef Target, unsigned Arg) {
      auto It = Facts.VectorData.find(Target.str());
      return It == Facts.VectorData.end() || Arg >= It->second.size()
                 ? std::vector<uint64_t>()
                 : It->second[Arg];
    });
    setCopyLayoutProvider(
        [this](llvm::StringRef Function, unsigned Line, unsigned Column) {
          return copyLayout(Function, Line, Column);
        });
  }
  ~SlopeConsumer() override {
    setDiagnosticHandler(nullptr);
    setPointeeTypeProvider(nullptr);
    setInactivityProvider(nullptr);
    setVectorDataProvider(nullptr);
    setCopyLayoutProvider(nullptr);
  }

  void HandleTranslationUnit(ASTContext &Context) override {
    checkApiCalls(Context, Facts, fullLinkTimeOptimization(CI));
    collectCopyLayouts(Context, Copies);
  }

private:
  bool show(const DiagnosticReport &Report) {
    auto It = Facts.Locations.find({Report.TargetName, Report.Mode});
    if (It == Facts.Locations.end())
      return false;
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    unsigned Error =
        Diags.getCustomDiagID(DiagnosticsEngine::Error, "slope: %0");
    // The request's own location tells apart calls for the same target:
    // the outermost of the frames inlined there is the user's call.
    SourceLocation Request;
    if (Report.Request)
      if (llvm::DILocation *Loc = Report.Request->getDebugLoc().get()) {
        while (Loc->getInlinedAt())
          Loc = Loc->getInlinedAt();
        Request = sourceLocation(Loc);
      }
    // Without it, every call of the target gets the message once.
    auto ReportAt = [&](SourceLocation Loc) {
      if (Reported.insert({Loc.getRawEncoding(), Report.Message}).second)
        Diags.Report(Loc, Error) << Report.Message;
    };
    if (Request.isValid() && llvm::is_contained(It->second, Request))
      ReportAt(Request);
    else
      for (SourceLocation Loc : It->second)
        ReportAt(Loc);
    if (SourceLocation At = sourceLocation(Report.Location);
        At.isValid() && At != Request)
      Diags.Report(At, Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                             "the construct Slope cannot "
                                             "differentiate is here"));
    return true;
  }

  /// Where \p Loc is in the source (invalid when unknown).
  SourceLocation sourceLocation(const llvm::DebugLoc &Loc) {
    if (!Loc)
      return SourceLocation();
    auto *Scope = llvm::cast<llvm::DIScope>(Loc->getScope());
    llvm::SmallString<256> Path(Scope->getFilename());
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::fs::make_absolute(Scope->getDirectory(), Path);
    SourceManager &SM = CI.getSourceManager();
    auto File = SM.getFileManager().getOptionalFileRef(Path);
    if (!File)
      return SourceLocation();
    return SM.translateFileLineCol(*File, Loc.getLine(), Loc.getCol());
  }

  llvm::Type *pointeeType(llvm::StringRef Target, unsigned Arg,
                          llvm::LLVMContext &Ctx) const {
    auto It = Facts.Pointees.find(Target.str());
    if (It == Facts.Pointees.end() || Arg >= It->second.size() ||
        !It->second[Arg])
      return nullptr;
    return llvm::Type::getFloatingPointTy(Ctx, *It->second[Arg]);
  }

  /// The element layout of the copy at \p Line:\p Column in \p Function
  /// (exactly there: another copy on the line may move another type).
  std::optional<SourceRecordLayout>
  copyLayout(llvm::StringRef Function, unsigned Line, unsigned Column) const {
    auto It = Copies.find({Function.str(), Line, Column});
    if (It == Copies.end() || !It->second.Size)
      return std::nullopt;
    return It->second;
  }

  CompilerInstance &CI;
  SourceFacts Facts;
  CopyLayouts Copies;
  /// Errors shown, by location and message.
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Reported;
};

class SlopeAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // Source locations in the IR (no debug info in the object, as for
    // -Rpass): the pass's errors then point at the statement at fault.
    if (CI.getCodeGenOpts().getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
      CI.getCodeGenOpts().setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [](llvm::PassBuilder &PB) { registerSlopePass(PB); });
    // -flto: targets defined in other files are differentiated at the link.
    setDeferUndefinedTargets(fullLinkTimeOptimization(CI));
    std::vector<std::string> Bitcode;
    for (const auto &File : CI.getCodeGenOpts().LinkBitcodeFiles)
      Bitcode.push_back(File.Filename);
    setBuiltinBitcodeFiles(std::move(Bitcode));
    return std::make_unique<SlopeConsumer>(CI);
  }

  /// -fplugin-arg-slope-dump (or -Xclang -plugin-arg-slope -Xclang dump)
  /// prints every generated derivative; -fplugin-arg-slope-verify checks
  /// at run time what the reverse sweeps do not tape (ReverseVerify.h).
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Arg == "dump") {
        setDumpDerivatives(true);
        continue;
      }
      if (Arg == "verify") {
        setVerifyReverseSweeps(true);
        continue;
      }
      DiagnosticsEngine &Diags = CI.getDiagnostics();
      Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                         "slope: unknown plugin option '%0' "
                                         "(known: dump, verify)"))
          << Arg;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace slope

static ParsedAttrInfoRegistry::Add<slope::PluginPresentAttr>
    PluginPresent("slope_plugin", "marks that the Slope plugin is loaded");
static ParsedAttrInfoRegistry::Add<slope::InactiveAttr>
    Inactive("slope_inactive", "a function Slope never differentiates");
static ParsedAttrInfoRegistry::Add<slope::UnsupportedEnzymeAttr>
    UnsupportedEnzyme("enzyme_unsupported",
                      "Enzyme attributes Slope refuses rather than ignores");
static FrontendPluginRegistry::Add<slope::SlopeAction>
    Plugin("slope", "automatic differentiation of grad<>/derivative<> calls");
