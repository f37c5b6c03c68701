//===- CopyTypes.cpp ------------------------------------------------------===//
#include "CopyTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

#include <memory>

using namespace clang;

namespace slope {

namespace {

/// Fields beyond this many are not worth describing (large arrays).
constexpr size_t MaxFields = 64;

/// Adds the fields of \p T placed at byte \p Base; false when \p T holds
/// data Slope cannot type (long double, unions, virtual bases).
bool addFields(QualType T, uint64_t Base, const ASTContext &Context,
               SourceRecordLayout &Out) {
  T = T.getCanonicalType();
  if (Out.Floats.size() + Out.Pointers.size() > MaxFields)
    return false;
  if (const auto *Builtin = T->getAs<BuiltinType>()) {
    if (Builtin->getKind() == BuiltinType::Double ||
        Builtin->getKind() == BuiltinType::Float) {
      Out.Floats.push_back({Base, unsigned(Context.getTypeSize(T))});
      return true;
    }
    return Builtin->isInteger() || Builtin->isNullPtrType();
  }
  if (T->isPointerType() || T->isReferenceType() || T->isBlockPointerType()) {
    if (Context.getTypeSize(T) != 64)
      return false;
    Out.Pointers.push_back(Base);
    return true;
  }
  if (T->isEnumeralType())
    return true;
  if (const auto *Complex = T->getAs<ComplexType>()) {
    uint64_t Part =
        Context.getTypeSizeInChars(Complex->getElementType()).getQuantity();
    return addFields(Complex->getElementType(), Base, Context, Out) &&
           addFields(Complex->getElementType(), Base + Part, Context, Out);
  }
  if (const auto *Array = Context.getAsConstantArrayType(T)) {
    uint64_t Size =
        Context.getTypeSizeInChars(Array->getElementType()).getQuantity();
    uint64_t Count = Array->getSize().getZExtValue();
    for (uint64_t I = 0; I < Count; ++I)
      if (!addFields(Array->getElementType(), Base + I * Size, Context, Out))
        return false;
    return true;
  }
  const auto *Record = T->getAsRecordDecl();
  if (!Record || Record->isUnion() || !Record->getDefinition() ||
      Record->isInvalidDecl())
    return false;
  const ASTRecordLayout &Layout = Context.getASTRecordLayout(Record);
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record)) {
    if (Class->getNumVBases())
      return false;
    if (Layout.hasOwnVFPtr())
      Out.Pointers.push_back(Base);
    for (const CXXBaseSpecifier &Spec : Class->bases()) {
      const CXXRecordDecl *BaseClass = Spec.getType()->getAsCXXRecordDecl();
      if (!BaseClass ||
          !addFields(Spec.getType(),
                     Base + Layout.getBaseClassOffset(BaseClass).getQuantity(),
                     Context, Out))
        return false;
    }
  }
  for (const FieldDecl *Field : Record->fields()) {
    if (Field->isBitField())
      continue; // integers
    uint64_t Offset = Base + Layout.getFieldOffset(Field->getFieldIndex()) / 8;
    if (!addFields(Field->getType(), Offset, Context, Out))
      return false;
  }
  return true;
}

static bool inStandardLibrary(const Decl &D) {
  for (const DeclContext *Context = D.getDeclContext(); Context;
       Context = Context->getParent())
    if (Context->isStdNamespace())
      return true;
  return false;
}

class CopyVisitor : public RecursiveASTVisitor<CopyVisitor> {
public:
  CopyVisitor(ASTContext &Context, CopyLayouts &Out)
      : Context(Context), Out(Out), Mangler(Context.createMangleContext()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return traverseFunction(
        FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    return traverseFunction(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return traverseFunction(FD, [&] {
      return RecursiveASTVisitor::TraverseCXXConstructorDecl(FD);
    });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) {
    return traverseFunction(
        FD, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(FD); });
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Names.empty() || Call->getNumArgs() < 2)
      return true;
    switch (Call->getBuiltinCallee()) {
    case Builtin::BI__builtin_memcpy:
    case Builtin::BI__builtin_memmove:
    case Builtin::BImemcpy:
    case Builtin::BImemmove:
      break;
    default:
      return true;
    }
    QualType Pointer = Call->getArg(0)->IgnoreParenImpCasts()->getType();
    if (!Pointer->isPointerType())
      return true;
    QualType Element = Pointer->getPointeeType();
    if (Element->isVoidType() || Element->isCharType() ||
        Element->isIncompleteType() || Element->isDependentType())
      return true;
    SourceRecordLayout Layout;
    Layout.Size = Context.getTypeSizeInChars(Element).getQuantity();
    if (!Layout.Size || !addFields(Element, 0, Context, Layout))
      return true;
    Layout.ElementAssignment = InStandardLibrary.back();
    const SourceManager &SM = Context.getSourceManager();
    PresumedLoc At = SM.getPresumedLoc(SM.getExpansionLoc(Call->getBeginLoc()));
    if (At.isInvalid())
      return true;
    for (const std::string &Name : Names.back()) {
      auto Key = std::make_tuple(Name, At.getLine(), At.getColumn());
      auto [It, New] = Out.emplace(Key, Layout);
      // Two types at one place: say nothing rather than guess.
      if (!New && !(It->second == Layout))
        It->second.Size = 0;
    }
    return true;
  }

private:
  template <class TraverseT>
  bool traverseFunction(FunctionDecl *FD, TraverseT Traverse) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
      return Traverse();
    Names.push_back(irNames(FD));
    // libstdc++ turns std::copy, std::move and their kin of trivially
    // copyable elements into memmove: there the copy assigns elements.
    InStandardLibrary.push_back(inStandardLibrary(*FD));
    bool Result = Traverse();
    InStandardLibrary.pop_back();
    Names.pop_back();
    return Result;
  }

  std::vector<std::string> irNames(const FunctionDecl *FD) {
    std::vector<GlobalDecl> Decls;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      Decls = {GlobalDecl(Ctor, Ctor_Complete), GlobalDecl(Ctor, Ctor_Base)};
    else if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(FD))
      Decls = {GlobalDecl(Dtor, Dtor_Complete), GlobalDecl(Dtor, Dtor_Base)};
    else
      Decls = {GlobalDecl(FD)};
    std::vector<std::string> Result;
    for (GlobalDecl GD : Decls) {
      if (!Mangler->shouldMangleDeclName(FD)) {
        Result.push_back(FD->getName().str());
        break;
      }
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      Mangler->mangleName(GD, OS);
      Result.push_back(OS.str());
    }
    return Result;
  }

  ASTContext &Context;
  CopyLayouts &Out;
  std::unique_ptr<MangleContext> Mangler;
  /// IR names of the functions being traversed, innermost last.
  std::vector<std::vector<std::string>> Names;
  /// Whether each of those functions is the standard library's.
  std::vector<bool> InStandardLibrary;
};

} // namespace

void collectCopyLayouts(ASTContext &Context, CopyLayouts &Out) {
  CopyVisitor(Context, Out).TraverseAST(Context);
}

} // namespace slope
