//===- LibraryRewrites.h - C library calls in Slope's terms ------*- C++
//-*-===//
//
// C library functions that write results through pointers have no rule of
// the table's form. In the copy Slope differentiates, each is replaced by
// operations that compute the same bits and that Slope differentiates:
//
//   m = frexp(x, &e)            the call stays for e (marked inactive);
//                               m = ldexp(x, -e)
//   f = modf(x, &i)             i = trunc(x); f = copysign(x - i, x)
//                               (0 for infinite x)
//   r = posix_memalign(&p, a, n)  p = aligned_alloc(a, n rounded up);
//                               r = p ? 0 : ENOMEM
//   w = cexp(z), clog, csqrt, __muldc3, __divdc3 (both parts at once)
//                               w = {slope.complex.<op>.re(z),
//                                    slope.complex.<op>.im(z)}: helpers that
//                               call the function and return one part,
//                               with rules (rules/ComplexRules.cpp)
//   cabs(z), carg(z)            hypot(re, im), atan2(im, re)
//
//===----------------------------------------------------------------------===//
#ifndef SLOPE_CORE_LIBRARYREWRITES_H
#define SLOPE_CORE_LIBRARYREWRITES_H

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Function.h"

namespace slope {

/// Rewrites the calls above in \p F; returns whether it changed anything.
bool rewriteLibraryCalls(llvm::Function &F, const llvm::TargetLibraryInfo &TLI);

} // namespace slope

#endif
