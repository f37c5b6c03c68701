; A load from an address outside its loop that no write of the loop may
; change (a coefficient) is read once before the loop when it runs in every
; iteration (InvariantLoads.cpp): its adjoint then enters c's shadow once,
; after the loop's reverse. Where it runs in some iterations only, it
; stays in the loop, and its adjoint is summed in a register across the
; loop's reverse and added to the shadow once, where the reverse sweep
; leaves the loop -- not loaded and stored in every iteration.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [4 x i8] c"DDI\00"

; Σ c·x[i]² over i < n.
define double @scaled(ptr noalias %x, ptr noalias %c, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xp, align 8
  %k = load double, ptr %c, align 8
  %sq = fmul double %v, %v
  %term = fmul double %k, %sq
  %acc.next = fadd double %acc, %term
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

; Σ c·x[i]² over odd i < n: c is read in half of the iterations.
define double @scaledOdd(ptr noalias %x, ptr noalias %c, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %latch ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xp, align 8
  %sq = fmul double %v, %v
  %odd = trunc i64 %i to i1
  br i1 %odd, label %scale, label %latch
scale:
  %k = load double, ptr %c, align 8
  %term = fmul double %k, %sq
  br label %latch
latch:
  %add = phi double [ %term, %scale ], [ 0.0, %loop ]
  %acc.next = fadd double %acc, %add
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %c, i64 %n, ptr %dx, ptr %dc, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @scaled, ptr @desc, ptr %out, ptr %x, ptr %c, i64 %n, ptr %dx, ptr %dc, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @scaledOdd, ptr @desc, ptr %out, ptr %x, ptr %c, i64 %n, ptr %dx, ptr %dc, ptr null)
  ret void
}

; (The derivatives come out in the reverse order of the calls.)
; CHECK-LABEL: define internal { double } @scaledOdd.slope.reverse.DDI(
; CHECK: scale:
; CHECK: %k = load double, ptr %c, align 8
; In the loop's reverse: the sum in a register, no access of c's shadow.
; CHECK: latch.rev:
; CHECK-NEXT: %[[SUM:.*]] = phi double [ -0.000000e+00, %exit ], [ %[[LAST:.*]], %loop.rev ]
; CHECK: loop.rev:
; CHECK-NEXT: %[[LAST]] = phi double [ %[[ADDED:.*]], %latch.rev.from.scale ], [ %[[SUM]], %latch.rev ]
; CHECK: latch.rev.from.scale:
; CHECK-NOT: %c.shadow
; CHECK: %[[ADDED]] = fadd double %[[SUM]],
; CHECK-NOT: %c.shadow
; CHECK: br label %loop.rev
; Where the reverse leaves the loop: added to the shadow once.
; CHECK: rev.leave.add:
; CHECK-NEXT: %[[OLD:.*]] = load double, ptr %[[AT:.*]], align 8
; CHECK-NEXT: %[[NEW:.*]] = fadd double %[[OLD]], %[[LAST]]
; CHECK-NEXT: store double %[[NEW]], ptr %[[AT]], align 8

; CHECK-LABEL: define internal { double } @scaled.slope.reverse.DDI(
; Read once where the loop starts, never in it.
; CHECK: entry:
; CHECK-NEXT: %k = load double, ptr %c, align 8
; CHECK: loop:
; CHECK-NOT: ptr %c,
; CHECK: exit:
; In the loop's reverse no access of c's shadow; after it, one.
; CHECK: loop.rev:
; CHECK-NOT: %c.shadow
; CHECK: br i1 %{{.*}}, label %loop.rev.leave, label %loop.rev
; CHECK: loop.rev.leave:
; CHECK-NEXT: %[[OLD:.*]] = load double, ptr %c.shadow, align 8
; CHECK-NEXT: %[[NEW:.*]] = fadd nsz double %[[OLD]],
; CHECK-NEXT: store double %[[NEW]], ptr %c.shadow, align 8

; REMARK-DAG: this value is read once before its loop: no write in the loop may change it
; REMARK-DAG: the adjoint of this value is summed across the loop and added to memory once
