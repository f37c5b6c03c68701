; Enzyme entry points become calls of the derivatives the core generates;
; results are laid out as the declared type (direct or sret).
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@enzyme_const = external global i32
@enzyme_dup = external global i32
@enzyme_width = external global i32

%struct.Triple = type { double, double, double }

define double @f(double %x, double %y, double %z) {
  %xy = fmul double %x, %y
  %r = fmul double %xy, %z
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
declare void @__enzyme_autodiff3(ptr sret(%struct.Triple), ptr, ...)
declare { double, double } @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define double @one_adjoint(
; CHECK: %[[D:.*]] = call { double, double } @f.slope.reverse.ACC.noresult(double %x, double %y, double %z, double 1.000000e+00)
; CHECK: %[[DX:.*]] = extractvalue { double, double } %[[D]], 1
; CHECK-NOT: __enzyme_autodiff
; CHECK: ret double %[[DX]]
define double @one_adjoint(double %x, double %y, double %z) {
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, double %y, i32 %c, double %z)
  ret double %d
}

; Three adjoints through sret memory, at the fields' offsets.
; CHECK-LABEL: define void @three_adjoints(
; CHECK: call { double, double, double, double } @f.slope.reverse.AAA.noresult(double %x, double %y, double %z, double 1.000000e+00)
; CHECK: %[[F0:.*]] = getelementptr inbounds i8, ptr %out, i64 0
; CHECK: store double %{{.*}}, ptr %[[F0]]
; CHECK: %[[F1:.*]] = getelementptr inbounds i8, ptr %out, i64 8
; CHECK: store double %{{.*}}, ptr %[[F1]]
; CHECK: %[[F2:.*]] = getelementptr inbounds i8, ptr %out, i64 16
; CHECK: store double %{{.*}}, ptr %[[F2]]
define void @three_adjoints(ptr %out, double %x, double %y, double %z) {
  call void (ptr, ptr, ...) @__enzyme_autodiff3(ptr sret(%struct.Triple) %out, ptr @f, double %x, double %y, double %z)
  ret void
}

; Vector forward mode: one derivative with two tangents per active value.
; CHECK-LABEL: define { double, double } @two_lanes(
; CHECK: call { double, double, double } @f.slope.forward.ACA.w2(double %x, double %y, double %z, double 1.000000e+00, double 0.000000e+00, double 0.000000e+00, double 1.000000e+00)
; CHECK-LABEL: define internal { double, double, double } @f.slope.forward.ACA.w2(
define { double, double } @two_lanes(double %x, double %y, double %z) {
  %w = load i32, ptr @enzyme_width
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i64 2, i32 %d, double %x, double 1.0, double 0.0, i32 %c, double %y, i32 %d, double %z, double 0.0, double 1.0)
  ret { double, double } %r
}
