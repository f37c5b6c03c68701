//===- RuleTable.h - Access to the rule table -------------------*- C++ -*-===//
#ifndef SLOPE_CORE_RULETABLE_H
#define SLOPE_CORE_RULETABLE_H

#include "Rules.h"

#include "llvm/ADT/ArrayRef.h"

namespace slope {

/// Every rule, in declaration order.
llvm::ArrayRef<DerivativeRule> ruleTable();

/// Rules of the parts of C's complex runtime functions (ComplexRules.cpp).
llvm::ArrayRef<DerivativeRule> complexRuleTable();

/// Rules of operations only NVVM intrinsics have (NVVMRules.cpp).
llvm::ArrayRef<DerivativeRule> nvvmRuleTable();

/// Each NVVM intrinsic with a rule, and the name of its rule.
void forEachNVVMAlias(
    llvm::function_ref<void(llvm::Intrinsic::ID, llvm::StringRef)> Visit);

} // namespace slope

#endif
