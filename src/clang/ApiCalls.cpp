//===- ApiCalls.cpp -------------------------------------------------------===//
#include "ApiCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
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

class ApiCallVisitor : public RecursiveASTVisitor<ApiCallVisitor> {
public:
  ApiCallVisitor(ASTContext &Context, RequestLocations &Locations,
                 PointeeSemantics &Pointees)
      : Context(Context), Locations(Locations), Pointees(Pointees),
        Mangler(Context.createMangleContext()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Api = Call->getDirectCallee();
    std::optional<DiffMode> Mode = apiMode(Api);
    if (!Mode || Call->isValueDependent() || Call->isTypeDependent())
      return true;
    const TemplateArgumentList *Args = Api->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0)
      return true;
    auto [Target, Body] = targetOf(Args->get(0));
    if (!Target || !Body)
      return true; // the header's static checks explain the problem
    if (!Body->hasBody()) {
      DiagnosticsEngine &Diags = Context.getDiagnostics();
      unsigned ID = Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "slope: cannot differentiate '%0': its definition is not visible "
          "in this translation unit");
      Diags.Report(Call->getExprLoc(), ID) << Body->getQualifiedNameAsString();
      unsigned Note = Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                            "'%0' is declared here");
      Diags.Report(Body->getLocation(), Note)
          << Body->getQualifiedNameAsString();
      return true;
    }
    std::string Name = irName(Target);
    Locations[{Name, *Mode}].push_back(Call->getExprLoc());
    std::vector<const llvm::fltSemantics *> &Params = Pointees[Name];
    Params.clear();
    for (const ParmVarDecl *Param : Target->parameters()) {
      QualType T = Param->getType();
      Params.push_back(T->isPointerType()
                           ? elementSemantics(T->getPointeeType(), Context)
                           : nullptr);
    }
    return true;
  }

private:
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
  std::unique_ptr<MangleContext> Mangler;
};

} // namespace

void checkApiCalls(ASTContext &Context, RequestLocations &Locations,
                   PointeeSemantics &Pointees) {
  ApiCallVisitor(Context, Locations, Pointees).TraverseAST(Context);
}

} // namespace slope
