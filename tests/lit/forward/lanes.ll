; Vector forward mode from a marker whose descriptor ends in /NN: each
; lane's tangents follow the primals in turn, the primal runs once, and the
; caller's tangent array receives one tangent per lane.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@d = linkonce_odr constant [6 x i8] c"AA/02\00"

define double @f(double %x, double %y) {
  %s = call double @sin(double %x)
  %m = fmul double %s, %y
  ret double %m
}

declare double @sin(double)
declare void @_ZN5slope6detail14forward_markerIJddddddEEEvPKvPKcPvS5_DpT_(ptr, ptr, ptr, ptr, ...)

define void @caller(double %x, double %y, ptr %value, ptr %tangents) {
  call void (ptr, ptr, ptr, ptr, ...) @_ZN5slope6detail14forward_markerIJddddddEEEvPKvPKcPvS5_DpT_(ptr @f, ptr @d, ptr %value, ptr %tangents, double %x, double %y, double 1.0, double 0.0, double 0.0, double 1.0)
  ret void
}

; CHECK-LABEL: define void @caller(
; CHECK: %[[R:.*]] = call { double, double, double } @f.slope.forward.AA.w2(double %x, double %y, double 1.000000e+00, double 0.000000e+00, double 0.000000e+00, double 1.000000e+00)
; CHECK: store double %{{.*}}, ptr %value
; CHECK: %[[T0:.*]] = extractvalue { double, double, double } %[[R]], 1
; CHECK: store double %[[T0]], ptr %tangents
; CHECK: %[[AT:.*]] = getelementptr inbounds double, ptr %tangents, i64 1
; CHECK: %[[T1:.*]] = extractvalue { double, double, double } %[[R]], 2
; CHECK: store double %[[T1]], ptr %[[AT]]

; CHECK-LABEL: define internal { double, double, double } @f.slope.forward.AA.w2(
; CHECK: call double @sin(
; CHECK-NOT: call double @sin(
; CHECK: ret { double, double, double }
