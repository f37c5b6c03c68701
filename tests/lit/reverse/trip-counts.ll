; An inner loop that leaves only from its latch took a trip count scalar
; evolution can compute (here i + 1 for the triangular nest): the reverse
; sweep recomputes it from the outer counter instead of taping the
; iteration at exit. Only the running product goes on the tape.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [3 x i8] c"AI\00"

; f(x, n) = r after r <- r*x + 1, i + 1 times for each i < n (n >= 1)
define double @f(double %x, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %r.outer = phi double [ 1.0, %entry ], [ %r.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %r = phi double [ %r.outer, %outer ], [ %r.next, %inner ]
  %rx = fmul double %r, %x
  %r.next = fadd double %rx, 1.0
  %j.next = add nuw nsw i64 %j, 1
  %inner.done = icmp ugt i64 %j.next, %i
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %i.next = add nuw nsw i64 %i, 1
  %outer.done = icmp eq i64 %i.next, %n
  br i1 %outer.done, label %exit, label %outer
exit:
  ret double %r.next
}

declare void @_ZN5slope6detail14reverse_markerIJdlPdDnEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, i64, ptr, ptr)

define void @caller(double %x, i64 %n, ptr %dx) {
  call void @_ZN5slope6detail14reverse_markerIJdlPdDnEEEvPKvPKcPvDpT_(ptr @f, ptr @desc, ptr null, double %x, i64 %n, ptr %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.AI.noresult(
; CHECK-NOT: store i64
; CHECK: ret { double, double }

; REMARK: tapes a double carried from the previous iteration
; REMARK-NOT: tapes a i64
