; A block in a loop entered either straight from a guard (`if (n > 0)`
; skipping an inner loop) or from the inner loop's exit: the guard runs once
; per iteration before the block, so its condition says which edge entered
; the block. When the condition can be recomputed without the tape (it
; reads memory nothing writes), the reverse sweep branches on it and tapes
; no edge; when the guard reads memory the loop overwrites, the edge is
; taped as usual.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck --check-prefix=ROWS %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck --check-prefix=CLEAR %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [4 x i8] c"DDI\00"

; Σ_r Σ_{c < len[r]} x[c]·x[c] over rows r < n; `clear` also sets len[r] = 0.
define double @rows(ptr noalias %x, ptr noalias %len, i64 %n) {
  %s = call double @rowsImpl(ptr %x, ptr %len, i64 %n, i1 false)
  ret double %s
}

define double @clearing(ptr noalias %x, ptr noalias %len, i64 %n) {
  %s = call double @rowsImpl(ptr %x, ptr %len, i64 %n, i1 true)
  ret double %s
}

define internal double @rowsImpl(ptr noalias %x, ptr noalias %len, i64 %n, i1 %clear) alwaysinline {
entry:
  br label %row
row:
  %r = phi i64 [ 0, %entry ], [ %r.next, %next ]
  %s = phi double [ 0.0, %entry ], [ %s.row, %next ]
  %len.addr = getelementptr inbounds i32, ptr %len, i64 %r
  %count = load i32, ptr %len.addr
  %count64 = sext i32 %count to i64
  %nonempty = icmp sgt i32 %count, 0
  br i1 %nonempty, label %elems, label %row.end
elems:
  %c = phi i64 [ 0, %row ], [ %c.next, %elems ]
  %acc = phi double [ %s, %row ], [ %acc.next, %elems ]
  %addr = getelementptr inbounds double, ptr %x, i64 %c
  %v = load double, ptr %addr
  %acc.next = call double @llvm.fmuladd.f64(double %v, double %v, double %acc)
  %c.next = add nuw nsw i64 %c, 1
  %done = icmp eq i64 %c.next, %count64
  br i1 %done, label %elems.exit, label %elems
elems.exit:
  br label %row.end
row.end:
  %s.row = phi double [ %s, %row ], [ %acc.next, %elems.exit ]
  br i1 %clear, label %wipe, label %next
wipe:
  store i32 0, ptr %len.addr
  br label %next
next:
  %r.next = add nuw nsw i64 %r, 1
  %rows.done = icmp eq i64 %r.next, %n
  br i1 %rows.done, label %exit, label %row
exit:
  ret double %s.row
}

declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %len, i64 %n, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr @rows, ptr @desc, ptr %out, ptr %x, ptr %len, i64 %n, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr @clearing, ptr @desc, ptr %out, ptr %x, ptr %len, i64 %n, ptr %dx, ptr null, ptr null)
  ret void
}

; len is never written: the guard is loaded again and nothing is taped.
; ROWS-LABEL: define internal { double } @rows.slope.reverse.DDI(
; ROWS-NOT: slope.tape
; ROWS: %nonempty{{.*}}.redo = icmp {{.*}} %count{{.*}}.redo
; ROWS-NEXT: br i1 %nonempty{{.*}}.redo
; ROWS-NOT: slope.tape
; ROWS: ret { double }

; len[r] is cleared after the guard read it: the edge is taped.
; CLEAR-LABEL: define internal { double } @clearing.slope.reverse.DDI(
; CLEAR: %came.from = phi i8
; CLEAR: store i8 %came.from
; CLEAR: ret { double }

; REMARK-NOT: 'rows' tapes
; REMARK: 'clearing' tapes which way a branch went
; REMARK-NOT: 'rows' tapes
