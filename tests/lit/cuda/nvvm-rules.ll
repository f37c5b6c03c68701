; The NVVM rules on hand-written nvptx IR, reverse mode: each partial is
; generic IR of the primal's precision (the NVPTX backend lowers an f64
; division to div.rn.f64), reusing the primal result where it can; the
; approximate sine's partial is the approximate cosine of the same ftz
; variant; singular partials are guarded by the adjoint being zero.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope %s | %llc -march=nvptx64 -mcpu=sm_80 -o /dev/null
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@desc = linkonce_odr constant [2 x i8] c"A\00"

declare double @llvm.nvvm.sqrt.rn.d(double)
declare double @llvm.nvvm.rsqrt.approx.d(double)
declare double @llvm.nvvm.rcp.rn.d(double)
declare float @llvm.nvvm.sin.approx.ftz.f(float)
declare void @_ZN5slope6detail14reverse_markerIJdPvEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, double, ptr)
declare void @_ZN5slope6detail14reverse_markerIJfPvEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, float, ptr)

define double @roots(double %x) {
  %s = call double @llvm.nvvm.sqrt.rn.d(double %x)
  %r = call double @llvm.nvvm.rsqrt.approx.d(double %x)
  %c = call double @llvm.nvvm.rcp.rn.d(double %x)
  %sr = fadd double %s, %r
  %y = fadd double %sr, %c
  ret double %y
}

define float @wave(float %x) {
  %y = call float @llvm.nvvm.sin.approx.ftz.f(float %x)
  ret float %y
}

define void @caller(double %x, ptr %dx, float %f, ptr %df) {
  call void @_ZN5slope6detail14reverse_markerIJdPvEEEvPKvPKcS2_DpT_(ptr @roots, ptr @desc, ptr null, double %x, ptr %dx)
  call void @_ZN5slope6detail14reverse_markerIJfPvEEEvPKvPKcS2_DpT_(ptr @wave, ptr @desc, ptr null, float %f, ptr %df)
  ret void
}

; CHECK-LABEL: define internal { double, double } @roots.slope.reverse.A.noresult(
; sqrt: 0.5 · (1/√x) (a round-to-nearest division by the root), guarded.
; CHECK-DAG: [[OVER_ROOT:%.*]] = fdiv double 1.000000e+00, %s
; CHECK-DAG: fmul double [[OVER_ROOT]], 5.000000e-01
; CHECK-DAG: fcmp oeq double %seed, 0.000000e+00
; rsqrt: −r / (2x).
; CHECK-DAG: [[TWO_X:%.*]] = fmul double %x, 2.000000e+00
; CHECK-DAG: [[MINUS_R:%.*]] = fneg double %r
; CHECK-DAG: fdiv double [[MINUS_R]], [[TWO_X]]
; rcp: −c².
; CHECK-DAG: [[MINUS_C:%.*]] = fneg double %c
; CHECK-DAG: fmul double %c, [[MINUS_C]]
; CHECK: ret { double, double }

; CHECK-LABEL: define internal { float, float } @wave.slope.reverse.A.noresult(
; CHECK: call float @llvm.nvvm.cos.approx.ftz.f(float %x)
; CHECK: ret { float, float }
