//===- RuleTable.h - Access to the rule table -------------------*- C++ -*-===//
#ifndef SLOPE_CORE_RULETABLE_H
#define SLOPE_CORE_RULETABLE_H

#include "Rules.h"

#include "llvm/ADT/ArrayRef.h"

namespace slope {

/// Every rule, in declaration order.
llvm::ArrayRef<DerivativeRule> ruleTable();

} // namespace slope

#endif
