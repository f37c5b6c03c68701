; A stack array of run-time size inside a loop (a VLA, an inlined
; alloca()) gives its space back at the stackrestore, before the reverse
; sweep runs. In the copy Slope differentiates it is a heap allocation,
; freed when the alloca runs again and at the return; its shadow is a
; heap shadow that lives until the reverse sweep is done with it.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DI\00"

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 1, %entry ], [ %k.next, %use ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %use ]
  %save = call ptr @llvm.stacksave.p0()
  %row = alloca double, i64 %k, align 16
  %xk = load double, ptr %x, align 8
  br label %fill

fill:
  %j = phi i64 [ 0, %loop ], [ %j.next, %fill ]
  %jf = uitofp i64 %j to double
  %v = fmul double %xk, %jf
  %at = getelementptr inbounds double, ptr %row, i64 %j
  store double %v, ptr %at, align 8
  %j.next = add i64 %j, 1
  %filled = icmp eq i64 %j.next, %k
  br i1 %filled, label %use, label %fill

use:
  %last = sub i64 %k, 1
  %at.last = getelementptr inbounds double, ptr %row, i64 %last
  %back = load double, ptr %at.last, align 8
  %sq = fmul double %back, %back
  %s.next = fadd double %s, %sq
  call void @llvm.stackrestore.p0(ptr %save)
  %k.next = add i64 %k, 1
  %done = icmp ugt i64 %k.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %s.next
}

declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvlS2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvlS2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr %out, ptr %x, i64 %n, ptr %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @f.slope.reverse.DI(
; CHECK-NOT: alloca double, i64
; The previous iteration's array is given back, then a new one is made.
; CHECK: call void @free(ptr
; CHECK: %row = call ptr @malloc(
; CHECK: %row.shadow = call ptr @slope.shadow.alloc(
; CHECK: exit:
; CHECK: call void @free(ptr %row)
; The reverse sweep releases each iteration's shadow (kept on the tape).
; CHECK: call void @slope.shadow.free(ptr %row.shadow.tape)
