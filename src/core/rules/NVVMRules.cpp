//===- NVVMRules.cpp - Rules of the NVVM intrinsics -----------------------===//
//
// NVVM intrinsics come in rounding and precision variants (sqrt.rn.d,
// sqrt.approx.ftz.f, ...). Each variant reuses the rule of the operation it
// computes; the partials are generic IR of the primal's type, which the
// NVPTX backend lowers itself (a division stays a round-to-nearest
// division of that precision). The approximate sine and cosine take their
// partials from the other approximate function of the same variant.
//
//===----------------------------------------------------------------------===//
#include "RuleTable.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace slope {
namespace {

using R = RuleOperands &;
constexpr Intrinsic::ID None = Intrinsic::not_intrinsic;

/// The approximate cosine (sine) of the same flush-to-zero variant as the
/// primal approximate sine (cosine).
Value *approx(R r, Intrinsic::ID Plain, Intrinsic::ID Ftz) {
  Intrinsic::ID Primal = r.intrinsic();
  bool FlushesToZero = Primal == Intrinsic::nvvm_sin_approx_ftz_f ||
                       Primal == Intrinsic::nvvm_cos_approx_ftz_f;
  return r.B.CreateIntrinsic(FlushesToZero ? Ftz : Plain, {}, {r.x(0)});
}

const DerivativeRule Rules[] = {
    // 1/x: −y².
    {"rcp", 1, None, 0, {[](R r) { return r.neg(r.square(r.y())); }}, true},
    // 1/√x: −y/(2x).
    {"rsqrt",
     1,
     None,
     0,
     {[](R r) { return r.neg(r.div(r.y(), r.mul(r.c(2.0), r.x(0)))); }},
     true},
    // a+b and a·b as calls, with a rounding mode.
    {"nvvm.add",
     2,
     None,
     0,
     {[](R r) { return r.c(1.0); }, [](R r) { return r.c(1.0); }},
     false},
    {"nvvm.mul",
     2,
     None,
     0,
     {[](R r) { return r.x(1); }, [](R r) { return r.x(0); }},
     false},
    // a/b as a call.
    {"nvvm.div",
     2,
     None,
     0,
     {[](R r) { return r.div(r.c(1.0), r.x(1)); },
      [](R r) { return r.neg(r.div(r.y(), r.x(1))); }},
     true},
    {"nvvm.sin.approx",
     1,
     None,
     0,
     {[](R r) {
       return approx(r, Intrinsic::nvvm_cos_approx_f,
                     Intrinsic::nvvm_cos_approx_ftz_f);
     }},
     false},
    {"nvvm.cos.approx",
     1,
     None,
     0,
     {[](R r) {
       return r.neg(approx(r, Intrinsic::nvvm_sin_approx_f,
                           Intrinsic::nvvm_sin_approx_ftz_f));
     }},
     false},
    // Clamping to [0, 1]: 1 strictly inside, 0 where clamped.
    {"nvvm.saturate",
     1,
     None,
     0,
     {[](R r) {
       Value *Inside = r.B.CreateAnd(r.B.CreateFCmpOGT(r.x(0), r.c(0.0)),
                                     r.B.CreateFCmpOLT(r.x(0), r.c(1.0)));
       return r.indicator(Inside);
     }},
     false},
};

struct Alias {
  Intrinsic::ID ID;
  const char *Rule;
};

#define SLOPE_ROUNDINGS(Op, Rule)                                              \
  {Intrinsic::nvvm_##Op##_rn_d, Rule}, {Intrinsic::nvvm_##Op##_rz_d, Rule},    \
      {Intrinsic::nvvm_##Op##_rm_d, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rp_d, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rn_f, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rz_f, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rm_f, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rp_f, Rule},                                     \
      {Intrinsic::nvvm_##Op##_rn_ftz_f, Rule},                                 \
      {Intrinsic::nvvm_##Op##_rz_ftz_f, Rule},                                 \
      {Intrinsic::nvvm_##Op##_rm_ftz_f, Rule}, {                               \
    Intrinsic::nvvm_##Op##_rp_ftz_f, Rule                                      \
  }

const Alias Aliases[] = {
    SLOPE_ROUNDINGS(sqrt, "sqrt"),
    {Intrinsic::nvvm_sqrt_f, "sqrt"},
    {Intrinsic::nvvm_sqrt_approx_f, "sqrt"},
    {Intrinsic::nvvm_sqrt_approx_ftz_f, "sqrt"},
    {Intrinsic::nvvm_rsqrt_approx_f, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_ftz_f, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_d, "rsqrt"},
    {Intrinsic::nvvm_rsqrt_approx_ftz_d, "rsqrt"},
    SLOPE_ROUNDINGS(rcp, "rcp"),
    {Intrinsic::nvvm_rcp_approx_ftz_f, "rcp"},
    {Intrinsic::nvvm_rcp_approx_ftz_d, "rcp"},
    SLOPE_ROUNDINGS(add, "nvvm.add"),
    SLOPE_ROUNDINGS(mul, "nvvm.mul"),
    SLOPE_ROUNDINGS(div, "nvvm.div"),
    {Intrinsic::nvvm_div_approx_f, "nvvm.div"},
    {Intrinsic::nvvm_div_approx_ftz_f, "nvvm.div"},
    {Intrinsic::nvvm_ex2_approx_f, "exp2"},
    {Intrinsic::nvvm_ex2_approx_ftz_f, "exp2"},
    {Intrinsic::nvvm_ex2_approx_d, "exp2"},
    {Intrinsic::nvvm_lg2_approx_f, "log2"},
    {Intrinsic::nvvm_lg2_approx_ftz_f, "log2"},
    {Intrinsic::nvvm_lg2_approx_d, "log2"},
    {Intrinsic::nvvm_sin_approx_f, "nvvm.sin.approx"},
    {Intrinsic::nvvm_sin_approx_ftz_f, "nvvm.sin.approx"},
    {Intrinsic::nvvm_cos_approx_f, "nvvm.cos.approx"},
    {Intrinsic::nvvm_cos_approx_ftz_f, "nvvm.cos.approx"},
    {Intrinsic::nvvm_fmin_f, "fmin"},
    {Intrinsic::nvvm_fmin_ftz_f, "fmin"},
    {Intrinsic::nvvm_fmin_nan_f, "minimum"},
    {Intrinsic::nvvm_fmin_ftz_nan_f, "minimum"},
    {Intrinsic::nvvm_fmin_d, "fmin"},
    {Intrinsic::nvvm_fmax_f, "fmax"},
    {Intrinsic::nvvm_fmax_ftz_f, "fmax"},
    {Intrinsic::nvvm_fmax_nan_f, "maximum"},
    {Intrinsic::nvvm_fmax_ftz_nan_f, "maximum"},
    {Intrinsic::nvvm_fmax_d, "fmax"},
    {Intrinsic::nvvm_fabs_f, "fabs"},
    {Intrinsic::nvvm_fabs_ftz_f, "fabs"},
    {Intrinsic::nvvm_fabs_d, "fabs"},
    {Intrinsic::nvvm_fma_rn_d, "fma"},
    {Intrinsic::nvvm_fma_rz_d, "fma"},
    {Intrinsic::nvvm_fma_rm_d, "fma"},
    {Intrinsic::nvvm_fma_rp_d, "fma"},
    {Intrinsic::nvvm_fma_rn_f, "fma"},
    {Intrinsic::nvvm_fma_rz_f, "fma"},
    {Intrinsic::nvvm_fma_rm_f, "fma"},
    {Intrinsic::nvvm_fma_rp_f, "fma"},
    {Intrinsic::nvvm_fma_rn_ftz_f, "fma"},
    {Intrinsic::nvvm_fma_rz_ftz_f, "fma"},
    {Intrinsic::nvvm_fma_rm_ftz_f, "fma"},
    {Intrinsic::nvvm_fma_rp_ftz_f, "fma"},
    {Intrinsic::nvvm_saturate_f, "nvvm.saturate"},
    {Intrinsic::nvvm_saturate_ftz_f, "nvvm.saturate"},
    {Intrinsic::nvvm_saturate_d, "nvvm.saturate"},
};

} // namespace

ArrayRef<DerivativeRule> nvvmRuleTable() { return Rules; }

void forEachNVVMAlias(function_ref<void(Intrinsic::ID, StringRef)> Visit) {
  for (const Alias &A : Aliases)
    Visit(A.ID, A.Rule);
}

} // namespace slope
