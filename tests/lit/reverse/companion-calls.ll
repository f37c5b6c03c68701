; A partial derivative that is a function the primal also computes of the
; same operand (d/dx sin x = cos x beside cos x, d/dx cos x = -sin x beside
; sin x) uses the primal's result instead of calling the function again, in
; both modes (forward mode only where the primal call comes first).
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@a = linkonce_odr constant [2 x i8] c"A\00"

; f(x) = sin(x)·3 + cos(x)·5
define double @f(double %x) {
  %s = call double @sin(double %x)
  %c = call double @cos(double %x)
  %s3 = fmul double %s, 3.0
  %c5 = fmul double %c, 5.0
  %r = fadd double %s3, %c5
  ret double %r
}

declare double @sin(double)
declare double @cos(double)
declare void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, ptr)
declare void @_ZN5slope6detail14forward_markerIJddEEEvPKvPKcPvS5_DpT_(ptr, ptr, ptr, ptr, double, double)

define void @caller(double %x, ptr %dx, ptr %out, ptr %tan) {
  call void @_ZN5slope6detail14reverse_markerIJdPdEEEvPKvPKcPvDpT_(ptr @f, ptr @a, ptr null, double %x, ptr %dx)
  call void @_ZN5slope6detail14forward_markerIJddEEEvPKvPKcPvS5_DpT_(ptr @f, ptr @a, ptr %out, ptr %tan, double %x, double 1.0)
  ret void
}

; Two calls in all: the primal's.
; CHECK-LABEL: define internal { double, double } @f.slope.reverse.A.noresult(
; CHECK-COUNT-2: call {{.*}}double @{{sin|cos}}(double %x)
; CHECK-NOT: @{{sin|cos|llvm.sin|llvm.cos}}
; CHECK: ret { double, double }

; Forward: cos comes after sin, so sin's tangent calls cos once more; cos's
; tangent uses the primal sin.
; CHECK-LABEL: define internal {{.*}} @f.slope.forward.A(
; CHECK: %s = call double @sin(double %x)
; CHECK: call double @llvm.cos.f64(double %x)
; CHECK: %c = call double @cos(double %x)
; CHECK-NOT: @{{sin|cos|llvm.sin|llvm.cos}}
; CHECK: ret
