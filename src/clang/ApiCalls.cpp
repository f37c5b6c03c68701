//===- ApiCalls.cpp -------------------------------------------------------===//
#include "ApiCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <memory>
#include <optional>

using namespace clang;

namespace slope {
namespace {

/// The mode of a slope API function, if \p FD is one.
std::optional<DiffMode> apiMode(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return std::nullopt;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  if (!NS || NS->getName() != "slope" ||
      !NS->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<DiffMode>>(FD->getName())
      .Cases("grad", "value_and_grad", DiffMode::Reverse)
      .Cases("derivative", "value_and_derivative", DiffMode::Forward)
      .Default(std::nullopt);
}

/// The mode of an Enzyme entry point (`__enzyme_autodiff...` and the other
/// `__enzyme_` functions the pass serves or refuses), if \p FD is one.
std::optional<DiffMode> enzymeMode(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !FD->getName().starts_with("__enzyme_"))
    return std::nullopt;
  return FD->getName().starts_with("__enzyme_fwddiff") ? DiffMode::Forward
                                                       : DiffMode::Reverse;
}

/// The function \p E names: `f`, `(void *)f` or `&f`.
const FunctionDecl *namedFunction(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(E))
    E = AddressOf->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

/// The function an Enzyme call differentiates (its first argument).
const FunctionDecl *enzymeTarget(const CallExpr *Call) {
  return Call->getNumArgs() ? namedFunction(Call->getArg(0)) : nullptr;
}

/// The function behind the template argument F: a function, or the static
/// invoker of a captureless lambda. Also returns the function whose body
/// must be visible.
std::pair<const FunctionDecl *, const FunctionDecl *>
targetOf(const TemplateArgument &Arg) {
  QualType Type;
  if (Arg.getKind() == TemplateArgument::Declaration) {
    if (const auto *FD = dyn_cast<FunctionDecl>(Arg.getAsDecl()))
      return {FD, FD};
    Type = Arg.getParamTypeForDecl();
  } else if (Arg.getKind() == TemplateArgument::StructuralValue) {
    Type = Arg.getStructuralValueType();
  } else {
    return {nullptr, nullptr};
  }
  const CXXRecordDecl *Closure = Type->getAsCXXRecordDecl();
  if (!Closure || !Closure->isLambda())
    return {nullptr, nullptr};
  return {Closure->getLambdaStaticInvoker(), Closure->getLambdaCallOperator()};
}

/// The floating-point semantics \p T is made of: a floating type, arrays
/// of it, or structs whose fields all are; null for anything else.
const llvm::fltSemantics *elementSemantics(QualType T, ASTContext &Context) {
  T = T.getCanonicalType();
  if (T->isRealFloatingType())
    return &Context.getFloatTypeSemantics(T);
  if (const ArrayType *Array = Context.getAsArrayType(T))
    return elementSemantics(Array->getElementType(), Context);
  const RecordDecl *Record = T->getAsRecordDecl();
  if (!Record || Record->isUnion() || !Record->getDefinition())
    return nullptr;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record))
    if (Class->getNumBases() || Class->isPolymorphic())
      return nullptr;
  const llvm::fltSemantics *Common = nullptr;
  for (const FieldDecl *Field : Record->fields()) {
    const llvm::fltSemantics *S = elementSemantics(Field->getType(), Context);
    if (!S || (Common && Common != S))
      return nullptr;
    Common = S;
  }
  return Common;
}

/// The function a SLOPE_CUSTOM_DERIVATIVE table (slope/custom.hpp) is for.
const FunctionDecl *customRuleTarget(const VarDecl *Var) {
  if (!Var->getIdentifier() ||
      !Var->getName().starts_with("slope_custom_rule_") || !Var->hasInit())
    return nullptr;
  const auto *List = dyn_cast<InitListExpr>(Var->getInit()->IgnoreImplicit());
  if (!List || List->getNumInits() == 0)
    return nullptr;
  return namedFunction(List->getInit(0));
}

bool isMarkedInactive(const FunctionDecl *FD) {
  for (const auto *Annotation : FD->specific_attrs<AnnotateAttr>())
    if (Annotation->getAnnotation() == "slope_inactive")
      return true;
  return false;
}

class ApiCallVisitor : public RecursiveASTVisitor<ApiCallVisitor> {
public:
  ApiCallVisitor(ASTContext &Context, SourceFacts &Facts)
      : Context(Context), Locations(Facts.Locations), Pointees(Facts.Pointees),
        Inactive(Facts.Inactive), Mangler(Context.createMangleContext()) {}

  bool VisitVarDecl(VarDecl *Var) {
    if (const FunctionDecl *Target = customRuleTarget(Var))
      WithRules.insert(Target->getCanonicalDecl());
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (isMarkedInactive(FD) && !FD->isDependentContext())
      Inactive.insert(irName(FD));
    return true;
  }

  /// Targets without a body are errors unless a custom rule covers them;
  /// the rule may come later in the file, so this waits for the end.
  void reportMissingBodies() {
    DiagnosticsEngine &Diags = Context.getDiagnostics();
    for (auto [Call, Body] : WithoutBody) {
      if (WithRules.count(Body->getCanonicalDecl()))
        continue;
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "slope: cannot differentiate '%0': its definition is not visible "
          "in this translation unit");
      Diags.Report(Call->getExprLoc(), ID) << Body->getQualifiedNameAsString();
      unsigned Note = Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                            "'%0' is declared here");
      Diags.Report(Body->getLocation(), Note)
          << Body->getQualifiedNameAsString();
    }
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (Call->isValueDependent() || Call->isTypeDependent())
      return true;
    const FunctionDecl *Api = Call->getDirectCallee();
    if (std::optional<DiffMode> Mode = enzymeMode(Api)) {
      // The pass checks Enzyme calls; errors appear here.
      const FunctionDecl *Target = enzymeTarget(Call);
      Locations[{Target ? irName(Target) : "", *Mode}].push_back(
          Call->getExprLoc());
      if (Target)
        recordPointees(Target);
      return true;
    }
    std::optional<DiffMode> Mode = apiMode(Api);
    if (!Mode)
      return true;
    const TemplateArgumentList *Args = Api->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0)
      return true;
    auto [Target, Body] = targetOf(Args->get(0));
    if (!Target || !Body)
      return true; // the header's static checks explain the problem
    if (!Body->hasBody())
      WithoutBody.push_back({Call, Body});
    Locations[{irName(Target), *Mode}].push_back(Call->getExprLoc());
    recordPointees(Target);
    return true;
  }

private:
  void recordPointees(const FunctionDecl *Target) {
    std::string Name = irName(Target);
    std::vector<const llvm::fltSemantics *> &Params = Pointees[Name];
    Params.clear();
    for (const ParmVarDecl *Param : Target->parameters()) {
      QualType T = Param->getType();
      Params.push_back(T->isPointerType()
                           ? elementSemantics(T->getPointeeType(), Context)
                           : nullptr);
    }
  }

  std::string irName(const FunctionDecl *FD) {
    if (!Mangler->shouldMangleDeclName(FD))
      return FD->getName().str();
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    Mangler->mangleName(GlobalDecl(FD), OS);
    return OS.str();
  }

  ASTContext &Context;
  RequestLocations &Locations;
  PointeeSemantics &Pointees;
  std::set<std::string> &Inactive;
  std::unique_ptr<MangleContext> Mangler;
  llvm::SmallPtrSet<const FunctionDecl *, 8> WithRules;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> WithoutBody;
};

} // namespace

void checkApiCalls(ASTContext &Context, SourceFacts &Facts) {
  ApiCallVisitor Visitor(Context, Facts);
  Visitor.TraverseAST(Context);
  Visitor.reportMissingBodies();
}

} // namespace slope
