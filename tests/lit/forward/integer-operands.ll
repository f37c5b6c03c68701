; Math functions with an integer operand: ldexp (libm call and intrinsic)
; and scalbn scale by 2ⁿ, so their tangent is the operand's times
; ldexp(1, n); the integer gets none. fdim(a, b) = max(a - b, 0) passes a's
; tangent where a > b.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"AC\00"

define double @f(double %x, double %y) {
entry:
  %a = call double @ldexp(double %x, i32 3)
  %b = call double @llvm.ldexp.f64.i32(double %x, i32 -2)
  %c = call double @scalbn(double %x, i32 5)
  %d = call double @fdim(double %x, double %y)
  %ab = fadd double %a, %b
  %cd = fadd double %c, %d
  %r = fadd double %ab, %cd
  ret double %r
}

declare double @ldexp(double, i32)
declare double @scalbn(double, i32)
declare double @fdim(double, double)
declare double @llvm.ldexp.f64.i32(double, i32)
declare void @_ZN5slope6detail14forward_markerIPFdddEJdddDnEEEvT_PKcPvS7_DpT0_(ptr, ptr, ptr, ptr, double, double, double, ptr)

define void @caller(double %x, double %y, double %dx, ptr %value, ptr %tangent) {
  call void @_ZN5slope6detail14forward_markerIPFdddEJdddDnEEEvT_PKcPvS7_DpT0_(ptr @f, ptr @desc, ptr %value, ptr %tangent, double %x, double %y, double %dx, ptr null)
  ret void
}

; The builder folds ldexp(1, n) for constant n: 2³, 2⁻², 2⁵.
; CHECK-LABEL: define internal { double, double } @f.slope.forward.AC(
; CHECK: %a = call double @ldexp(double %x, i32 3)
; CHECK-NEXT: %a.tangent = fmul double %x.tangent, 8.000000e+00
; CHECK: %b = call double @llvm.ldexp.f64.i32(double %x, i32 -2)
; CHECK-NEXT: %b.tangent = fmul double %x.tangent, 2.500000e-01
; CHECK: %c = call double @scalbn(double %x, i32 5)
; CHECK-NEXT: %c.tangent = fmul double %x.tangent, 3.200000e+01
; CHECK: %d = call double @fdim(double %x, double %y)
; CHECK-NEXT: [[GT:%.*]] = fcmp ogt double %x, %y
; CHECK-NEXT: [[IND:%.*]] = select i1 [[GT]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT: %d.tangent = fmul double [[IND]], %x.tangent
