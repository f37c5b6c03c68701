; Control the reverse sweep re-derives must come from the values the primal
; sweep saw. Here the inner loop's trip count m = cnt[i + 1] -- which also
; decides the guard m > 0 before the loop -- is read from memory that the
; next iteration overwrites (cnt[i] = 2m + 1): recomputing the trip count
; or the guard from memory would take the new count (reading outside the
; tape, or skipping the inner loop's reverse). Both come from the tape.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@dci = linkonce_odr constant [4 x i8] c"DCI\00"

define double @counts(ptr noalias %x, ptr noalias %cnt, i64 %n) {
entry:
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  %s = phi double [ 0.3, %entry ], [ %s.row, %row.end ]
  %i.next = add nuw nsw i64 %i, 1
  %m.addr = getelementptr inbounds i32, ptr %cnt, i64 %i.next
  %m = load i32, ptr %m.addr, align 4
  %xi.addr = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %xi.addr, align 8
  %nonempty = icmp sgt i32 %m, 0
  br i1 %nonempty, label %inner, label %row.end
inner:
  %j = phi i32 [ 0, %row ], [ %j.next, %inner ]
  %acc = phi double [ %s, %row ], [ %acc.next, %inner ]
  %arg = fadd double %acc, %xi
  %acc.next = call double @llvm.sin.f64(double %arg)
  %j.next = add nuw nsw i32 %j, 1
  %inner.done = icmp eq i32 %j.next, %m
  br i1 %inner.done, label %inner.exit, label %inner
inner.exit:
  br label %row.end
row.end:
  %s.row = phi double [ %s, %row ], [ %acc.next, %inner.exit ]
  %twice = shl nsw i32 %m, 1
  %new = or i32 %twice, 1
  %old.addr = getelementptr inbounds i32, ptr %cnt, i64 %i
  store i32 %new, ptr %old.addr, align 4
  %last = add nsw i64 %n, -1
  %rows.done = icmp eq i64 %i.next, %last
  br i1 %rows.done, label %exit, label %row
exit:
  ret double %s.row
}

declare double @llvm.sin.f64(double)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %cnt, i64 %n, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr @counts, ptr @dci, ptr %out, ptr %x, ptr %cnt, i64 %n, ptr %dx, ptr null, ptr null)
  ret void
}

; The reverse sweep never loads cnt: m is not loaded again, and neither the
; guard nor the trip count is recomputed from it.
; CHECK-LABEL: define internal { double } @counts.slope.reverse.DCI(
; CHECK-NOT: %m.redo
; CHECK-NOT: came.from.guard
; CHECK: ret { double }

; REMARK: 'counts' tapes which way a branch went
