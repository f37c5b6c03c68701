; A gradient whose caller does not want the value (grad, a null result
; pointer) returns poison in its place, and what only the value needed dies
; in the primal sweep: here the whole running sum of quotients, the
; divisions included (the reverse sweep needs 1/d, not the quotients).
; value_and_grad (a result pointer) gets its own derivative that keeps them.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"D\00"

; f(x) = sum_i 1 / x[i]
define double @f(ptr %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %sum = phi double [ 0.0, %entry ], [ %sum.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %q = fdiv double 1.0, %v
  %sum.next = fadd double %sum, %q
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 8
  br i1 %done, label %exit, label %loop
exit:
  ret double %sum.next
}

declare void @_ZN5slope6detail14reverse_markerIPFdPdEJS1_S1_EEEvT_PKcPvDpT0_(ptr, ptr, ptr, ptr, ptr)

define void @grad(ptr %x, ptr %dx) {
  call void @_ZN5slope6detail14reverse_markerIPFdPdEJS1_S1_EEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr null, ptr %x, ptr %dx)
  ret void
}

define void @value_and_grad(ptr %x, ptr %dx, ptr %value) {
  call void @_ZN5slope6detail14reverse_markerIPFdPdEJS1_S1_EEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr %value, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define void @grad(
; CHECK: call { double } @f.slope.reverse.D.noresult(ptr %x, ptr %dx, double 1.000000e+00)
; CHECK-LABEL: define void @value_and_grad(
; CHECK: [[R:%.*]] = call { double } @f.slope.reverse.D(ptr %x, ptr %dx, double 1.000000e+00)
; CHECK: [[V:%.*]] = extractvalue { double } [[R]], 0
; CHECK: store double [[V]], ptr %value

; CHECK-LABEL: define internal { double } @f.slope.reverse.D(
; CHECK: fdiv double 1.000000e+00, %v
; CHECK: fadd double %sum
; CHECK: ret { double } %

; CHECK-LABEL: define internal { double } @f.slope.reverse.D.noresult(
; CHECK-NOT: fadd double %sum
; CHECK: ret { double } poison
