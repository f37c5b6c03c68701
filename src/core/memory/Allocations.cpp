//===- Allocations.cpp ----------------------------------------------------===//
#include "Allocations.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace slope {

namespace {
/// Which allocator memory comes from; it decides how memory goes back.
enum class Family { Malloc, New, NewArray, SlopeShadow };

/// One allocation or release function of the C and C++ libraries, with the
/// operands that hold its size and alignment (-1 where it takes none).
struct HeapCall {
  LibFunc Func;
  bool Allocates; // else it releases its first operand
  Family Of;
  int SizeArg;
  int AlignArg;
};

// clang-format off
constexpr HeapCall HeapCalls[] = {
    {LibFunc_malloc,                                true,  Family::Malloc,   0, -1},
    {LibFunc_calloc,                                true,  Family::Malloc,  -1, -1},
    {LibFunc_aligned_alloc,                         true,  Family::Malloc,   1,  0},
    {LibFunc_Znwm,                                  true,  Family::New,      0, -1},
    {LibFunc_ZnwmRKSt9nothrow_t,                    true,  Family::New,      0, -1},
    {LibFunc_ZnwmSt11align_val_t,                   true,  Family::New,      0,  1},
    {LibFunc_ZnwmSt11align_val_tRKSt9nothrow_t,     true,  Family::New,      0,  1},
    {LibFunc_Znam,                                  true,  Family::NewArray, 0, -1},
    {LibFunc_ZnamRKSt9nothrow_t,                    true,  Family::NewArray, 0, -1},
    {LibFunc_ZnamSt11align_val_t,                   true,  Family::NewArray, 0,  1},
    {LibFunc_ZnamSt11align_val_tRKSt9nothrow_t,     true,  Family::NewArray, 0,  1},
    {LibFunc_free,                                  false, Family::Malloc,  -1, -1},
    {LibFunc_ZdlPv,                                 false, Family::New,     -1, -1},
    {LibFunc_ZdlPvRKSt9nothrow_t,                   false, Family::New,     -1, -1},
    {LibFunc_ZdlPvm,                                false, Family::New,      1, -1},
    {LibFunc_ZdlPvSt11align_val_t,                  false, Family::New,     -1,  1},
    {LibFunc_ZdlPvSt11align_val_tRKSt9nothrow_t,    false, Family::New,     -1,  1},
    {LibFunc_ZdlPvmSt11align_val_t,                 false, Family::New,      1,  2},
    {LibFunc_ZdaPv,                                 false, Family::NewArray,-1, -1},
    {LibFunc_ZdaPvRKSt9nothrow_t,                   false, Family::NewArray,-1, -1},
    {LibFunc_ZdaPvm,                                false, Family::NewArray, 1, -1},
    {LibFunc_ZdaPvSt11align_val_t,                  false, Family::NewArray,-1,  1},
    {LibFunc_ZdaPvSt11align_val_tRKSt9nothrow_t,    false, Family::NewArray,-1,  1},
    {LibFunc_ZdaPvmSt11align_val_t,                 false, Family::NewArray, 1,  2},
};
// clang-format on

/// Slope's own heap shadows (HeapShadows.h), as a derivative that is
/// differentiated again calls them: zeroed, released by slope.shadow.free.
struct SlopeHeapCall {
  StringLiteral Name;
  bool Allocates;
  bool Zeroed;
  int SizeArg;
  int AlignArg;
};
constexpr SlopeHeapCall SlopeHeapCalls[] = {
    {"slope.shadow.alloc", true, true, 0, -1},
    {"slope.shadow.alloc.unzeroed", true, false, 0, -1},
    {"slope.shadow.alloc.aligned", true, true, 0, 1},
    {"slope.shadow.free", false, false, -1, -1},
};
const SlopeHeapCall *slopeHeapCallOf(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return nullptr;
  for (const SlopeHeapCall &Row : SlopeHeapCalls)
    if (Callee->getName() == Row.Name)
      return &Row;
  return nullptr;
}
} // namespace

bool isSlopeHeapShadowCall(const Function &F) {
  return any_of(SlopeHeapCalls, [&](const SlopeHeapCall &Row) {
    return F.getName() == Row.Name;
  });
}

/// The C or C++ library function \p Call calls, if TLI knows it.
static std::optional<LibFunc> libFuncOf(const CallBase &Call,
                                        const TargetLibraryInfo &TLI) {
  const Function *Callee = Call.getCalledFunction();
  LibFunc Func;
  if (!Callee || !TLI.getLibFunc(*Callee, Func))
    return std::nullopt;
  return Func;
}

/// The HeapCalls row of \p Call, if it allocates (\p Allocates) or releases.
static const HeapCall *
heapCallOf(const CallBase &Call, const TargetLibraryInfo &TLI, bool Allocates) {
  if (const SlopeHeapCall *Slope = slopeHeapCallOf(Call)) {
    // One row per helper, kept beside the library's (the same shape).
    static const HeapCall Alloc{LibFunc_malloc, true, Family::SlopeShadow, 0,
                                -1},
        Aligned{LibFunc_malloc, true, Family::SlopeShadow, 0, 1},
        Free{LibFunc_free, false, Family::SlopeShadow, -1, -1};
    if (Slope->Allocates != Allocates)
      return nullptr;
    return !Allocates ? &Free : Slope->AlignArg >= 0 ? &Aligned : &Alloc;
  }
  std::optional<LibFunc> Func = libFuncOf(Call, TLI);
  if (!Func)
    return nullptr;
  for (const HeapCall &Row : HeapCalls)
    if (Row.Func == *Func)
      return Row.Allocates == Allocates ? &Row : nullptr;
  return nullptr;
}

static Value *operandOrNull(const CallBase &Call, int Index) {
  return Index < 0 ? nullptr : Call.getArgOperand(Index);
}

std::optional<Allocation> asAllocation(const CallBase &Call,
                                       const TargetLibraryInfo &TLI) {
  const HeapCall *Row = heapCallOf(Call, TLI, /*Allocates=*/true);
  if (!Row)
    return std::nullopt;
  Value *Size = operandOrNull(Call, Row->SizeArg);
  const SlopeHeapCall *Slope = slopeHeapCallOf(Call);
  bool Zeroed = Slope ? Slope->Zeroed : !Size;
  return Allocation{Size, Zeroed, operandOrNull(Call, Row->AlignArg)};
}

std::optional<std::pair<Value *, Value *>>
asReallocation(const CallBase &Call, const TargetLibraryInfo &TLI) {
  if (libFuncOf(Call, TLI) != LibFunc_realloc)
    return std::nullopt;
  return std::make_pair(Call.getArgOperand(0), Call.getArgOperand(1));
}

Value *releasedPointer(const CallBase &Call, const TargetLibraryInfo &TLI) {
  return heapCallOf(Call, TLI, /*Allocates=*/false) ? Call.getArgOperand(0)
                                                    : nullptr;
}

bool isRelease(const CallBase &Call, const TargetLibraryInfo &TLI) {
  return releasedPointer(Call, TLI) != nullptr;
}

Value *releasedSize(const CallBase &Call, const TargetLibraryInfo &TLI) {
  const HeapCall *Row = heapCallOf(Call, TLI, /*Allocates=*/false);
  return Row ? operandOrNull(Call, Row->SizeArg) : nullptr;
}

/// The unsized release of family \p Of, aligned when \p Alignment is set
/// (malloc's family takes none: free releases aligned_alloc's memory).
static Release releaseOfFamily(Family Of, Value *Alignment) {
  switch (Of) {
  case Family::Malloc:
    return Release{"free"};
  case Family::New:
    return Alignment ? Release{"_ZdlPvSt11align_val_t", Alignment}
                     : Release{"_ZdlPv"};
  case Family::NewArray:
    return Alignment ? Release{"_ZdaPvSt11align_val_t", Alignment}
                     : Release{"_ZdaPv"};
  case Family::SlopeShadow:
    return Release{"slope.shadow.free"};
  }
  return Release{"free"};
}

std::optional<Release> releaseOfAllocation(const CallBase &Call,
                                           const TargetLibraryInfo &TLI) {
  const HeapCall *Row = heapCallOf(Call, TLI, /*Allocates=*/true);
  if (!Row)
    return std::nullopt;
  return releaseOfFamily(Row->Of, operandOrNull(Call, Row->AlignArg));
}

std::optional<Release> unsizedRelease(const CallBase &Call,
                                      const TargetLibraryInfo &TLI) {
  const HeapCall *Row = heapCallOf(Call, TLI, /*Allocates=*/false);
  if (!Row)
    return std::nullopt;
  return releaseOfFamily(Row->Of, operandOrNull(Call, Row->AlignArg));
}

void emitRelease(IRBuilderBase &B, const Release &How, Value *Pointer) {
  Module &M = *B.GetInsertBlock()->getModule();
  SmallVector<Type *, 2> Params = {Pointer->getType()};
  SmallVector<Value *, 2> Args = {Pointer};
  if (How.Alignment) {
    Params.push_back(How.Alignment->getType());
    Args.push_back(How.Alignment);
  }
  FunctionCallee Callee = M.getOrInsertFunction(
      How.Callee, FunctionType::get(B.getVoidTy(), Params, false));
  B.CreateCall(Callee, Args);
}

} // namespace slope
