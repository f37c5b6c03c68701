; C's complex runtime functions return both parts at once. Slope splits
; each call into calls of helpers that return one part (and call the
; library function, so values stay the library's), whose rules give the
; holomorphic derivative: exp's real part moves with (u, -v) = e^a (cos b,
; -sin b). cabs becomes hypot.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"AA\00"

define double @f(double %a, double %b) {
  %w = call { double, double } @cexp(double %a, double %b)
  %re = extractvalue { double, double } %w, 0
  %im = extractvalue { double, double } %w, 1
  %m = call double @cabs(double %re, double %im)
  %r = fmul double %re, %m
  ret double %r
}

; float's complex values travel as <2 x float>.
define float @g(float %a, float %b) {
  %z0 = insertelement <2 x float> poison, float %a, i64 0
  %z = insertelement <2 x float> %z0, float %b, i64 1
  %w = call <2 x float> @cexpf(<2 x float> %z)
  %re = extractelement <2 x float> %w, i64 0
  ret float %re
}

declare { double, double } @cexp(double, double)
declare <2 x float> @cexpf(<2 x float>)
declare double @cabs(double, double)
declare void @_ZN5slope6detail14reverse_markerIPFdddEJddPdS4_EEEvT_PKcPvDpT0_(ptr, ptr, ptr, double, double, ptr, ptr)

define void @caller(double %a, double %b, ptr %da, ptr %db, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIPFdddEJddPdS4_EEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr %out, double %a, double %b, ptr %da, ptr %db)
  ret void
}

declare void @_ZN5slope6detail14reverse_markerIPFfffEJffPfS4_EEEvT_PKcPvDpT0_(ptr, ptr, ptr, float, float, ptr, ptr)

define void @caller.float(float %a, float %b, ptr %da, ptr %db, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIPFfffEJffPfS4_EEEvT_PKcPvDpT0_(ptr @g, ptr @desc, ptr %out, float %a, float %b, ptr %da, ptr %db)
  ret void
}

; The helpers call the library function and return one part.
; CHECK-LABEL: define internal double @slope.complex.exp.re(double %0, double %1)
; CHECK: [[W:%.*]] = call { double, double } @cexp(double %0, double %1)
; CHECK: extractvalue { double, double } [[W]], 0
; CHECK-LABEL: define internal { double, double, double } @f.slope.reverse.AA(
; CHECK-NOT: call {{.*}} @cexp
; CHECK-DAG: call double @slope.complex.exp.re(double %a, double %b)
; CHECK-DAG: call double @slope.complex.exp.im(double %a, double %b)
; CHECK-DAG: call double @hypot(
; The partials of the real part: e^a·cos b and -(e^a·sin b).
; CHECK-DAG: call double @llvm.exp.f64(double %a)
; CHECK-DAG: call double @llvm.cos.f64(double %b)
; CHECK-DAG: call double @llvm.sin.f64(double %b)
; CHECK: ret { double, double, double }
; The float helper packs the parts into <2 x float> for cexpf.
; CHECK-LABEL: define internal float @slope.complex.exp.ref(float %0, float %1)
; CHECK: call <2 x float> @cexpf(<2 x float>
; CHECK: extractelement <2 x float> {{.*}}, i64 0
; CHECK-LABEL: define internal { float, float, float } @g.slope.reverse.AA(
; CHECK: call float @slope.complex.exp.ref(float %a, float %b)
; CHECK-NOT: <2 x float>
; CHECK: ret { float, float, float }
