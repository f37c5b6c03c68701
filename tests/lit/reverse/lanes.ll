; Vector reverse mode: a descriptor ending in /NN asks for NN lanes. The
; derivative takes each lane's shadows in turn (then one seed per lane when
; the result is floating-point) and returns each lane's adjoints in turn;
; the primal sweep and its tape serve all lanes, and partials are shared.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@d = linkonce_odr constant [7 x i8] c"DAD/02\00"
@l = linkonce_odr constant [6 x i8] c"DI/03\00"

; y[0] = sin(x[0]) * a
define void @f(ptr %x, double %a, ptr %y) {
  %v = load double, ptr %x
  %s = call double @sin(double %v)
  %m = fmul double %s, %a
  store double %m, ptr %y
  ret void
}

; Π sin(x[i]) over i < n
define double @prod(ptr %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr double, ptr %x, i32 %i
  %v = load double, ptr %p
  %s = call double @sin(double %v)
  %acc.next = fmul double %acc, %s
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret double %acc.next
}

declare double @sin(double)
declare void @_ZN5slope6detail14reverse_markerIJPvdS2_S2_S2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ...)

define void @caller(ptr %x, double %a, ptr %y, ptr %dx0, ptr %da0, ptr %dy0, ptr %dx1, ptr %da1, ptr %dy1, ptr %dx2, i32 %n, ptr %r) {
  call void (ptr, ptr, ptr, ...) @_ZN5slope6detail14reverse_markerIJPvdS2_S2_S2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @d, ptr null, ptr %x, double %a, ptr %y, ptr %dx0, ptr %da0, ptr %dy0, ptr %dx1, ptr %da1, ptr %dy1)
  call void (ptr, ptr, ptr, ...) @_ZN5slope6detail14reverse_markerIJPvdS2_S2_S2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @prod, ptr @l, ptr %r, ptr %x, i32 %n, ptr %dx0, ptr null, ptr %dx1, ptr null, ptr %dx2, ptr null)
  ret void
}

; CHECK-LABEL: define void @caller(
; CHECK: %[[F:.*]] = call { double, double } @f.slope.reverse.DAD.w2(ptr %x, double %a, ptr %y, ptr %dx0, ptr %dy0, ptr %dx1, ptr %dy1)
; CHECK: %[[A0:.*]] = extractvalue { double, double } %[[F]], 0
; CHECK: store double %[[A0]], ptr %da0
; CHECK: %[[A1:.*]] = extractvalue { double, double } %[[F]], 1
; CHECK: store double %[[A1]], ptr %da1
; CHECK: call { double } @prod.slope.reverse.DI.w3(ptr %x, i32 %n, ptr %dx0, ptr %dx1, ptr %dx2, double 1.000000e+00, double 1.000000e+00, double 1.000000e+00)

; One primal loop (one sin), one reverse loop that serves three lanes (one
; cos).
; CHECK-LABEL: define internal { double } @prod.slope.reverse.DI.w3(ptr %x, i32 %n, ptr %x.shadow.0, ptr %x.shadow.1, ptr %x.shadow.2, double %seed.0, double %seed.1, double %seed.2)
; CHECK: call double @sin(
; CHECK-NOT: call double @sin(
; CHECK: call double @llvm.cos.f64(
; CHECK-NOT: call double @llvm.cos.f64(
; CHECK-DAG: getelementptr double, ptr %x.shadow.0
; CHECK-DAG: getelementptr double, ptr %x.shadow.1
; CHECK-DAG: getelementptr double, ptr %x.shadow.2
; CHECK-NOT: call double @
; CHECK: ret { double }

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.DAD.w2(ptr %x, double %a, ptr %y, ptr %x.shadow.0, ptr %y.shadow.0, ptr %x.shadow.1, ptr %y.shadow.1)
; CHECK: call double @sin(
; CHECK-NOT: call double @sin(
; CHECK-DAG: load double, ptr %y.shadow.0
; CHECK-DAG: store double 0.000000e+00, ptr %y.shadow.0
; CHECK-DAG: load double, ptr %y.shadow.1
; CHECK-DAG: store double 0.000000e+00, ptr %y.shadow.1
; CHECK: call double @llvm.cos.f64(
; CHECK-NOT: call double @llvm.cos.f64(
; CHECK-DAG: store double %{{.*}}, ptr %x.shadow.0
; CHECK-DAG: store double %{{.*}}, ptr %x.shadow.1
; CHECK: ret { double, double }
