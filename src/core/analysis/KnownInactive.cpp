//===- KnownInactive.cpp --------------------------------------------------===//
#include "KnownInactive.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace slope {
namespace {

bool isInactiveLibFunc(LibFunc Func) {
  switch (Func) {
  case LibFunc_printf:
  case LibFunc_fprintf:
  case LibFunc_sprintf:
  case LibFunc_snprintf:
  case LibFunc_vprintf:
  case LibFunc_vfprintf:
  case LibFunc_vsprintf:
  case LibFunc_vsnprintf:
  case LibFunc_puts:
  case LibFunc_fputs:
  case LibFunc_putchar:
  case LibFunc_fputc:
  case LibFunc_putc:
  case LibFunc_fflush:
  case LibFunc_fwrite:
  case LibFunc_perror:
  case LibFunc_under_IO_putc:
  case LibFunc_getenv:
    return true;
  default:
    return false;
  }
}

/// C functions TargetLibraryInfo does not know, and libstdc++ output and
/// formatting (by mangled-name prefix).
constexpr StringLiteral InactiveNames[] = {
    "rand",          "srand",         "random",         "srandom",
    "time",          "clock",         "clock_gettime",  "gettimeofday",
    "sleep",         "usleep",        "__assert_fail",  "__printf_chk",
    "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "dprintf"};
constexpr StringLiteral InactivePrefixes[] = {
    "_ZNSo9_M_insertI",                   // ostream::_M_insert<T>
    "_ZNSolsE",                           // ostream::operator<<
    "_ZStlsI",                            // operator<<(ostream&, ...)
    "_ZSt16__ostream_insertI",            // std::__ostream_insert
    "_ZSt4endlI",                         // std::endl
    "_ZNSo5flushEv",                      // ostream::flush
    "_ZNSo3putEc",                        // ostream::put
    "_ZN9__gnu_cxx12__to_xstringI",       // std::to_string
    "_ZNSt7__cxx119to_string",            // std::to_string
    "_ZNSt6chrono3_V212steady_clock3now", // clocks
    "_ZNSt6chrono3_V212system_clock3now",
};

} // namespace

bool isKnownInactiveCall(const CallBase &Call, const TargetLibraryInfo &TLI) {
  if (Call.hasMetadata(InactiveCallMetadata))
    return true;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  LibFunc Func;
  if (TLI.getLibFunc(*Callee, Func) && isInactiveLibFunc(Func))
    return true;
  StringRef Name = Callee->getName();
  for (StringRef Known : InactiveNames)
    if (Name == Known)
      return true;
  for (StringRef Prefix : InactivePrefixes)
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

} // namespace slope
