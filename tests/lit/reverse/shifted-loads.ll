; A header phi that carries the load of the previous iteration (GVN turns
; start[i] into the previous row's start[i + 1]) is, in iteration c, the
; load at start + 4·c: with start never written, the reverse sweep loads it
; again, and the inner loop's trip count, which depends on it, is
; recomputed too, and so is the guard that decides which edge entered the
; row's end (empty row or not): nothing is taped.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [4 x i8] c"DII\00"

; rows(v, start, n) = sum over rows i < n (n >= 1) of v[p]^2, p in [start[i], start[i+1])
define double @rows(ptr noalias %v, ptr noalias %start, i64 %n) {
entry:
  %first = load i32, ptr %start, align 4
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  %begin = phi i32 [ %first, %entry ], [ %end, %row.end ]
  %s = phi double [ 0.0, %entry ], [ %s.row, %row.end ]
  %i.next = add nuw nsw i64 %i, 1
  %end.addr = getelementptr inbounds i32, ptr %start, i64 %i.next
  %end = load i32, ptr %end.addr, align 4
  %nonempty = icmp slt i32 %begin, %end
  br i1 %nonempty, label %elems.pre, label %row.end
elems.pre:
  %b64 = sext i32 %begin to i64
  %e64 = sext i32 %end to i64
  br label %elems
elems:
  %p = phi i64 [ %b64, %elems.pre ], [ %p.next, %elems ]
  %acc = phi double [ %s, %elems.pre ], [ %acc.next, %elems ]
  %addr = getelementptr inbounds double, ptr %v, i64 %p
  %x = load double, ptr %addr, align 8
  %acc.next = call double @llvm.fmuladd.f64(double %x, double %x, double %acc)
  %p.next = add nsw i64 %p, 1
  %done = icmp eq i64 %p.next, %e64
  br i1 %done, label %elems.exit, label %elems
elems.exit:
  br label %row.end
row.end:
  %s.row = phi double [ %s, %row ], [ %acc.next, %elems.exit ]
  %rows.done = icmp eq i64 %i.next, %n
  br i1 %rows.done, label %exit, label %row
exit:
  ret double %s.row
}

declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)

define void @caller(ptr %v, ptr %start, i64 %n, ptr %dv, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr @rows, ptr @desc, ptr %out, ptr %v, ptr %start, i64 %n, ptr %dv, ptr null, ptr null)
  ret void
}

; The row's start is loaded again at start + 4 * (the row the reverse
; sweep is in).
; CHECK-LABEL: define internal { double } @rows.slope.reverse.DII(
; CHECK-DAG: %begin.again{{[0-9]*}} = load i32, ptr [[ADDR:%[0-9]+]]
; CHECK-DAG: [[OFFSET:%.*]] = shl i64 %reverse.iteration{{.*}}, 2
; CHECK-DAG: [[ADDR]] = getelementptr i8, ptr %start, i64 [[OFFSET]]
; CHECK-DAG: %nonempty.redo{{.*}} = icmp slt i32 %begin.again
; CHECK-NOT: slope.tape
; CHECK: ret { double }
; CHECK-NOT: define internal { ptr, i64 } @slope.tape.grow(

; Each decision is a remark; none says "tapes".
; REMARK-NOT: tapes
; REMARK-DAG: in the reverse sweep of 'rows' this loop's trip count is recomputed (no later write may change what it reads)
; REMARK-DAG: in the reverse sweep of 'rows' the edge this branch took is recomputed from its condition (no later write may change what it reads)
; REMARK-DAG: in the reverse sweep of 'rows' this value is loaded again (no later write may change that memory)
; REMARK-NOT: tapes
