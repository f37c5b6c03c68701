; Partials that can be infinite (1/√x at 0, 1/b at 0) are guarded so that a
; zero adjoint gives 0, not 0·inf = NaN. The guard goes where the operand is
; provably a positive normal number: √(x² + ε), a / (y² + 1); it stays where
; it is not (√(x²), a / y, √(x² + ε) with ε subnormal in float, √(x² - 1)),
; and for a division wherever the divisor may be below 1 (a / (y² + DBL_MIN):
; -(a/b)/b overflows although a/b does not).
; Forward mode decides the same way.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@a = linkonce_odr constant [2 x i8] c"A\00"
@aa = linkonce_odr constant [3 x i8] c"AA\00"

define double @softNorm(double %x) {
  %sq = fmul double %x, %x
  %s = fadd double %sq, 1.0e-4
  %r = call double @llvm.sqrt.f64(double %s)
  ret double %r
}

define double @norm(double %x) {
  %sq = fmul double %x, %x
  %r = call double @llvm.sqrt.f64(double %sq)
  ret double %r
}

define double @damped(double %a, double %y) {
  %d = call double @llvm.fmuladd.f64(double %y, double %y, double 1.0)
  %q = fdiv double %a, %d
  ret double %q
}

; A divisor at least DBL_MIN: a / b is finite, but the partial -(a/b)/b is
; not (b = DBL_MIN, a = 1): the guard stays.
define double @tinyDivisor(double %a, double %y) {
  %d = call double @llvm.fmuladd.f64(double %y, double %y, double 0x0010000000000000)
  %q = fdiv double %a, %d
  ret double %q
}

define double @ratio(double %a, double %y) {
  %q = fdiv double %a, %y
  ret double %q
}

define float @tiny(float %x) {
  %sq = fmul float %x, %x
  %s = fadd float %sq, 0x3730000000000000 ; 2^-140, subnormal
  %r = call float @llvm.sqrt.f32(float %s)
  ret float %r
}

define double @shifted(double %x) {
  %s = call double @llvm.fmuladd.f64(double %x, double %x, double -1.0)
  %r = call double @llvm.sqrt.f64(double %s)
  ret double %r
}

declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, ptr)
declare void @_ZN5slope6detail14reverse_markerIJddPdS3_EEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, double, ptr, ptr)
declare void @_ZN5slope6detail14reverse_markerIJfPfEEEvPKvPKcPvDpT_(ptr, ptr, ptr, float, ptr)
declare void @_ZN5slope6detail14forward_markerIJddEEEvPKvPKcPvS5_DpT_(ptr, ptr, ptr, ptr, double, double)

define void @caller(double %x, double %y, ptr %dx, ptr %dy, ptr %out, ptr %tan) {
  call void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr @softNorm, ptr @a, ptr null, double %x, ptr %dx)
  call void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr @norm, ptr @a, ptr null, double %x, ptr %dx)
  call void @_ZN5slope6detail14reverse_markerIJddPdS3_EEEvPKvPKcPvDpT_(ptr @damped, ptr @aa, ptr null, double %x, double %y, ptr %dx, ptr %dy)
  call void @_ZN5slope6detail14reverse_markerIJddPdS3_EEEvPKvPKcPvDpT_(ptr @tinyDivisor, ptr @aa, ptr null, double %x, double %y, ptr %dx, ptr %dy)
  call void @_ZN5slope6detail14reverse_markerIJddPdS3_EEEvPKvPKcPvDpT_(ptr @ratio, ptr @aa, ptr null, double %x, double %y, ptr %dx, ptr %dy)
  call void @_ZN5slope6detail14reverse_markerIJfPfEEEvPKvPKcPvDpT_(ptr @tiny, ptr @a, ptr null, float 1.0, ptr %dx)
  call void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr @shifted, ptr @a, ptr null, double %x, ptr %dx)
  call void @_ZN5slope6detail14forward_markerIJddEEEvPKvPKcPvS5_DpT_(ptr @softNorm, ptr @a, ptr %out, ptr %tan, double %x, double 1.0)
  call void @_ZN5slope6detail14forward_markerIJddEEEvPKvPKcPvS5_DpT_(ptr @norm, ptr @a, ptr %out, ptr %tan, double %x, double 1.0)
  ret void
}

; CHECK-LABEL: define internal { double, double } @shifted.slope.reverse.A.noresult(
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double } @norm.slope.reverse.A.noresult(
; CHECK: fcmp oeq double %{{.*}}, 0.0
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double } @softNorm.slope.reverse.A.noresult(
; CHECK-NOT: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double, double } @ratio.slope.reverse.AA.noresult(
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double, double } @tinyDivisor.slope.reverse.AA.noresult(
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double, double } @damped.slope.reverse.AA.noresult(
; CHECK-NOT: select
; CHECK: ret

; CHECK-LABEL: define internal { float, float } @tiny.slope.reverse.A.noresult(
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double } @norm.slope.forward.A(
; CHECK: select
; CHECK: ret

; CHECK-LABEL: define internal { double, double } @softNorm.slope.forward.A(
; CHECK-NOT: select
; CHECK: ret
