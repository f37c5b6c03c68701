; Reverse mode of straight-line code through opt and SlopePass.so: one
; combined function returning {value, adjoints...}, seeded with 1.0 at the
; marker call.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"AA\00"

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %m)
  ret double %s
}

declare double @llvm.sin.f64(double)
declare void @_ZN5slope6detail14reverse_markerIPFdddEJddPdS4_EEEvT_PKcPvDpT0_(ptr, ptr, ptr, double, double, ptr, ptr)

; CHECK-LABEL: define void @caller(
; CHECK-NEXT: [[G:%.*]] = call { double, double, double } @f.slope.reverse.AA(double %x, double %y, double 1.000000e+00)
; CHECK-NEXT: [[V:%.*]] = extractvalue { double, double, double } [[G]], 0
; CHECK-NEXT: store double [[V]], ptr %value
; CHECK-NEXT: [[DX:%.*]] = extractvalue { double, double, double } [[G]], 1
; CHECK-NEXT: store double [[DX]], ptr %dx
; CHECK-NEXT: [[DY:%.*]] = extractvalue { double, double, double } [[G]], 2
; CHECK-NEXT: store double [[DY]], ptr %dy
; CHECK-NEXT: ret void
define void @caller(double %x, double %y, ptr %value, ptr %dx, ptr %dy) {
  call void @_ZN5slope6detail14reverse_markerIPFdddEJddPdS4_EEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr %value, double %x, double %y, ptr %dx, ptr %dy)
  ret void
}

; The marker declaration is gone once every call is rewritten.
; CHECK-NOT: reverse_marker

; d sin(xy) = cos(xy) * (y dx + x dy), scaled by the seed; adjoints are
; returned with -0.0 canonicalized to +0.0.
; CHECK-LABEL: define internal { double, double, double } @f.slope.reverse.AA(double %x, double %y, double %seed)
; CHECK: [[M:%.*]] = fmul double %x, %y
; CHECK: [[S:%.*]] = call double @llvm.sin.f64(double [[M]])
; CHECK: [[C:%.*]] = call double @llvm.cos.f64(double [[M]])
; CHECK: [[DM:%.*]] = fmul double [[C]], %seed
; CHECK-DAG: [[DX:%.*]] = fmul double [[DM]], %y
; CHECK-DAG: [[DY:%.*]] = fmul double [[DM]], %x
; CHECK: insertvalue { double, double, double } undef, double [[S]], 0
; CHECK: fadd double [[DX]], 0.000000e+00
; CHECK: fadd double [[DY]], 0.000000e+00
; CHECK: ret { double, double, double }
