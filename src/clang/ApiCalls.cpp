//===- ApiCalls.cpp -------------------------------------------------------===//
#include "ApiCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
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

/// The first call in \p S (depth first) that \p Wanted accepts.
const CallExpr *findCall(const Stmt *S,
                         llvm::function_ref<bool(const CallExpr &)> Wanted) {
  if (!S)
    return nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && Wanted(*Call))
    return Call;
  for (const Stmt *Child : S->children())
    if (const CallExpr *Found = findCall(Child, Wanted))
      return Found;
  return nullptr;
}

/// For a call of Call<...>::reverse/forward (slope/detail/calls.hpp): its
/// first template argument, the function Slope differentiates (the target
/// or its adapter); null for other calls.
const FunctionDecl *differentiatedBy(const CallExpr &Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  const auto *Class =
      Method ? dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent())
             : nullptr;
  if (!Class || Class->getName() != "Call" || !Method->getIdentifier() ||
      (Method->getName() != "reverse" && Method->getName() != "forward"))
    return nullptr;
  const TemplateArgumentList *Args = Method->getTemplateSpecializationArgs();
  if (!Args || !Args->size() ||
      Args->get(0).getKind() != TemplateArgument::Declaration)
    return nullptr;
  return dyn_cast<FunctionDecl>(Args->get(0).getAsDecl());
}

/// The function API function \p Api has Slope differentiate, following
/// the API's own forwarding calls (the callable-object overloads call the
/// template form).
const FunctionDecl *differentiatedFunction(const FunctionDecl *Api,
                                           unsigned Depth = 0) {
  if (Depth > 4 || !Api)
    return nullptr;
  const CallExpr *Call = findCall(Api->getBody(), [](const CallExpr &C) {
    return apiMode(C.getDirectCallee()) || differentiatedBy(C);
  });
  if (!Call)
    return nullptr;
  if (apiMode(Call->getDirectCallee()))
    return differentiatedFunction(Call->getDirectCallee(), Depth + 1);
  return differentiatedBy(*Call);
}

/// The API function an API function forwards to (the callable-object
/// overloads), or null.
const FunctionDecl *forwardedApi(const Stmt *S) {
  const CallExpr *Call = findCall(S, [](const CallExpr &C) {
    return apiMode(C.getDirectCallee()).has_value();
  });
  return Call ? Call->getDirectCallee() : nullptr;
}

/// Whether \p T holds floating-point data or points to some: a float, or
/// a pointer, reference, array or class (fields and bases) reaching one.
bool reachesFloatingPoint(QualType T,
                          llvm::SmallPtrSetImpl<const RecordDecl *> &Seen) {
  T = T.getCanonicalType();
  if (T->isRealFloatingType() || T->isAnyComplexType())
    return true;
  if (T->isPointerType() || T->isReferenceType())
    return reachesFloatingPoint(T->getPointeeType(), Seen);
  if (const auto *Array = T->getAsArrayTypeUnsafe())
    return reachesFloatingPoint(Array->getElementType(), Seen);
  const RecordDecl *Record = T->getAsRecordDecl();
  if (!Record || !(Record = Record->getDefinition()) ||
      !Seen.insert(Record).second)
    return false;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record))
    for (const CXXBaseSpecifier &Base : Class->bases())
      if (reachesFloatingPoint(Base.getType(), Seen))
        return true;
  for (const FieldDecl *Field : Record->fields())
    if (reachesFloatingPoint(Field->getType(), Seen))
      return true;
  return false;
}

/// Whether \p T is one of the API's argument wrappers (slope::dup, ...).
/// slope::Seed: the adjoint of a struct result, given before the
/// arguments.
bool isSlopeSeed(QualType T) {
  const auto *Record = T.getCanonicalType()->getAsCXXRecordDecl();
  const auto *NS =
      Record ? dyn_cast<NamespaceDecl>(Record->getDeclContext()) : nullptr;
  return NS && NS->getName() == "slope" && Record->getIdentifier() &&
         Record->getName() == "Seed";
}

bool isSlopeWrapper(QualType T) {
  const auto *Record = T.getCanonicalType()->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(Record->getDeclContext());
  return NS && NS->getName() == "slope" &&
         llvm::StringSwitch<bool>(Record->getName())
             .Cases("Dup", "Constant", "Dual", "DupLanes", "DualLanes", true)
             .Default(false);
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
        VectorData(Facts.VectorData), Inactive(Facts.Inactive),
        Mangler(Context.createMangleContext()) {}

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
          "in this translation unit (to differentiate across files, build "
          "with -flto, full LTO rather than -flto=thin, and link with "
          "-fuse-ld=lld -Wl,--load-pass-plugin=<build>/lib/SlopePass.so)");
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
    if (!Mode || (!Enclosing.empty() && apiMode(Enclosing.back())))
      return true; // not an API call, or the API forwarding to itself
    // The callable-object form grad(f, x...) forwards to
    // grad<&F::operator()>(f, x...); the user's target is the latter's.
    const FunctionDecl *Named = Api;
    if (const FunctionDecl *Inner = forwardedApi(Api->getBody()))
      Named = Inner;
    const TemplateArgumentList *Args = Named->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0)
      return true;
    auto [Target, Body] = targetOf(Args->get(0));
    if (!Target || !Body)
      return true; // the header's static checks explain the problem
    if (!Body->hasBody())
      WithoutBody.push_back({Call, Body});
    checkUnwrappedArguments(Call, Body, /*CallableForm=*/Named != Api);
    checkVirtualTarget(Call, Body);
    if (const FunctionDecl *Differentiated = differentiatedFunction(Api))
      Target = Differentiated;
    Locations[{irName(Target), *Mode}].push_back(Call->getExprLoc());
    recordPointees(Target);
    return true;
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    Enclosing.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Enclosing.pop_back();
    return Result;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    Enclosing.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseCXXMethodDecl(FD);
    Enclosing.pop_back();
    return Result;
  }

private:
  /// A pointer, reference or object holding floating-point data that the
  /// caller passed without slope::dup or slope::constant would silently be
  /// constant: an error naming the argument, as the header gives for
  /// double*. (Floating-point scalars by value or const reference are
  /// active, and pointers to them the header reports.)
  void checkUnwrappedArguments(const CallExpr *Call, const FunctionDecl *Body,
                               bool CallableForm) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Body);
    // A struct result's seed comes first (after a callable object).
    unsigned SeedAt = CallableForm ? 1 : 0;
    unsigned Seeded =
        Call->getNumArgs() > SeedAt &&
        isSlopeSeed(Call->getArg(SeedAt)->IgnoreImpCasts()->getType());
    bool ObjectFirst = Method && Method->isInstance() &&
                       !(Method->getParent()->isLambda() && !CallableForm &&
                         Call->getNumArgs() - Seeded == Body->getNumParams());
    unsigned Offset = (ObjectFirst ? 1 : 0) + Seeded;
    DiagnosticsEngine &Diags = Context.getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "slope: argument %0 of '%1' holds or points to floating-point data "
        "but is neither slope::dup nor slope::constant: pass "
        "slope::dup(x, dx) to differentiate it, or slope::constant(&x)");
    auto check = [&](unsigned Index, QualType Param) {
      if (Index >= Call->getNumArgs())
        return;
      const Expr *Arg = Call->getArg(Index);
      if (isSlopeWrapper(Arg->IgnoreImpCasts()->getType()) ||
          Param->isDependentType())
        return;
      QualType Canonical = Param.getCanonicalType();
      QualType Pointee =
          Canonical->isPointerType() || Canonical->isReferenceType()
              ? Canonical->getPointeeType()
              : Canonical;
      // Scalars by value and by const reference are active; pointers to
      // scalars (and to pointers) and writable references to scalars are
      // the header's to report.
      if (Canonical->isRealFloatingType() ||
          (Canonical->isReferenceType() && Pointee->isRealFloatingType()) ||
          (Canonical->isPointerType() &&
           (Pointee->isRealFloatingType() || Pointee->isPointerType())))
        return;
      if (!(Canonical->isPointerType() || Canonical->isReferenceType() ||
            Canonical->isRecordType()))
        return;
      llvm::SmallPtrSet<const RecordDecl *, 8> Seen;
      if (!reachesFloatingPoint(Pointee, Seen))
        return;
      Diags.Report(Arg->getExprLoc(), ID)
          << Index + 1 << Body->getQualifiedNameAsString()
          << Arg->getSourceRange();
    };
    if (ObjectFirst && !CallableForm)
      check(Seeded, Context.getLValueReferenceType(
                        Context.getRecordType(Method->getParent())));
    for (unsigned I = 0; I < Body->getNumParams(); ++I)
      check(I + Offset, Body->getParamDecl(I)->getType());
  }

  /// A member function pointer to a virtual function calls through the
  /// object's vtable, a call Slope cannot follow; say so at the call.
  void checkVirtualTarget(const CallExpr *Call, const FunctionDecl *Body) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Body);
    if (!Method || !Method->isVirtual())
      return;
    DiagnosticsEngine &Diags = Context.getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "slope: cannot differentiate '%0': it is virtual, and a member "
        "function pointer calls it through the object's vtable; "
        "differentiate a function that calls it on an object of a final "
        "class instead (clang then calls it directly)");
    Diags.Report(Call->getExprLoc(), ID) << Method->getQualifiedNameAsString();
  }

  void recordPointees(const FunctionDecl *Target) {
    std::string Name = irName(Target);
    std::vector<const llvm::fltSemantics *> &Params = Pointees[Name];
    std::vector<std::vector<uint64_t>> &Vectors = VectorData[Name];
    Params.clear();
    Vectors.clear();
    for (const ParmVarDecl *Param : Target->parameters()) {
      QualType T = Param->getType();
      Params.push_back(T->isPointerType()
                           ? elementSemantics(T->getPointeeType(), Context)
                           : nullptr);
      Vectors.emplace_back();
      if (T->isPointerType() || T->isReferenceType())
        addVectorData(T->getPointeeType(), 0, Vectors.back());
    }
  }

  /// The offsets of the data pointers of std::vector<builtin> objects
  /// inside an object of type \p T at \p Base.
  void addVectorData(QualType T, uint64_t Base, std::vector<uint64_t> &Out) {
    const auto *Record = T->getAsCXXRecordDecl();
    if (!Record || Record->isUnion() || !Record->hasDefinition() ||
        Record->isInvalidDecl() || Record->isDependentType() ||
        Record->getNumVBases())
      return;
    if (const auto *Vector = dyn_cast<ClassTemplateSpecializationDecl>(Record);
        Vector && Vector->getName() == "vector" && Vector->isInStdNamespace()) {
      const TemplateArgumentList &Args = Vector->getTemplateArgs();
      QualType Element = Args[0].getAsType();
      // The standard allocator: a custom one could carve buffers out of
      // another object. libstdc++ and libc++ both keep the data pointer
      // first.
      const auto *Allocator =
          Args.size() > 1 ? Args[1].getAsType()->getAsCXXRecordDecl() : nullptr;
      if (Element->isArithmeticType() && !Element->isBooleanType() &&
          Allocator && Allocator->getName() == "allocator" &&
          Allocator->isInStdNamespace())
        Out.push_back(Base);
      return;
    }
    const ASTRecordLayout &Layout = Context.getASTRecordLayout(Record);
    for (const CXXBaseSpecifier &Spec : Record->bases())
      if (const CXXRecordDecl *BaseClass = Spec.getType()->getAsCXXRecordDecl())
        addVectorData(Spec.getType(),
                      Base + Layout.getBaseClassOffset(BaseClass).getQuantity(),
                      Out);
    for (const FieldDecl *Field : Record->fields())
      if (!Field->isBitField())
        addVectorData(Field->getType(),
                      Base + Layout.getFieldOffset(Field->getFieldIndex()) / 8,
                      Out);
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
  VectorDataOffsets &VectorData;
  std::set<std::string> &Inactive;
  std::unique_ptr<MangleContext> Mangler;
  llvm::SmallPtrSet<const FunctionDecl *, 8> WithRules;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> WithoutBody;
  std::vector<const FunctionDecl *> Enclosing;
};

} // namespace

void checkApiCalls(ASTContext &Context, SourceFacts &Facts, bool LinkTime) {
  ApiCallVisitor Visitor(Context, Facts);
  Visitor.TraverseAST(Context);
  if (!LinkTime)
    Visitor.reportMissingBodies();
}

} // namespace slope
