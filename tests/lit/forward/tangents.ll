; Forward mode: a tangent beside every active value, tangent phis for phis,
; and no code for the constant argument's tangent.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"AC\00"

; f(x, y) = x > y ? exp(x) * y : x / y
define double @f(double %x, double %y) {
entry:
  %c = fcmp ogt double %x, %y
  br i1 %c, label %big, label %small
big:
  %e = call double @llvm.exp.f64(double %x)
  %p = fmul double %e, %y
  br label %join
small:
  %q = fdiv double %x, %y
  br label %join
join:
  %r = phi double [ %p, %big ], [ %q, %small ]
  ret double %r
}

declare double @llvm.exp.f64(double)
declare void @_ZN5slope6detail14forward_markerIPFdddEJdddDnEEEvT_PKcPvS7_DpT0_(ptr, ptr, ptr, ptr, double, double, double, ptr)

; CHECK-LABEL: define void @caller(
; CHECK: [[R:%.*]] = call { double, double } @f.slope.forward.AC(double %x, double %y, double %dx)
; CHECK: [[V:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK: store double [[V]], ptr %value
; CHECK: [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK: store double [[T]], ptr %tangent
define void @caller(double %x, double %y, double %dx, ptr %value, ptr %tangent) {
  call void @_ZN5slope6detail14forward_markerIPFdddEJdddDnEEEvT_PKcPvS7_DpT0_(ptr @f, ptr @desc, ptr %value, ptr %tangent, double %x, double %y, double %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.slope.forward.AC(double %x, double %y, double %x.tangent)
; exp' = exp: the tangent reuses the primal result.
; CHECK: big:
; CHECK: %e = call double @llvm.exp.f64(double %x)
; CHECK: [[ET:%.*]] = fmul double %e, %x.tangent
; CHECK: [[PT:%.*]] = fmul double [[ET]], %y
; The quotient's tangent is guarded: a zero tangent stays zero.
; CHECK: small:
; CHECK: %q = fdiv double %x, %y
; CHECK: [[QT:%.*]] = fdiv double {{.*}}, %y
; CHECK: [[Z:%.*]] = fcmp oeq double %x.tangent, 0.000000e+00
; CHECK: select i1 [[Z]], double 0.000000e+00, double
; CHECK: join:
; CHECK: %r = phi double [ %p, %big ], [ %q, %small ]
; CHECK: %r.tangent = phi double [ [[PT]], %big ], [ {{%.*}}, %small ]
; CHECK: insertvalue { double, double } {{.*}}, double %r.tangent, 1
