; The floating-point type of copied bytes, judged from the accesses of the
; memory copied: storing the buffer's address elsewhere (a std::vector
; keeping its buffer) is not an access of the buffer and does not vote; and
; a cursor a loop advances through the buffer (a phi) is followed back to
; it.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [4 x i8] c"DII\00"

define double @f(ptr %x, i64 %n, i64 %m) {
entry:
  %holder = alloca ptr, align 8
  %bytes = shl i64 %n, 3
  %chunk = shl i64 %m, 3
  %buf = call ptr @malloc(i64 %bytes)
  store ptr %buf, ptr %holder, align 8
  %x0 = load double, ptr %x, align 8
  store double %x0, ptr %buf, align 8
  %copy = call ptr @malloc(i64 %bytes)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %from = phi ptr [ %buf, %entry ], [ %from.next, %loop ]
  %to = phi ptr [ %copy, %entry ], [ %to.next, %loop ]
  call void @llvm.memmove.p0.p0.i64(ptr %to, ptr %from, i64 %chunk, i1 false)
  %from.next = getelementptr inbounds i8, ptr %from, i64 %chunk
  %to.next = getelementptr inbounds i8, ptr %to, i64 %chunk
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %kept = load ptr, ptr %holder, align 8
  %c0 = load double, ptr %copy, align 8
  %r = fmul double %c0, %c0
  call void @free(ptr %kept)
  call void @free(ptr %copy)
  ret double %r
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, i64 %m, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %m, ptr %dx, ptr null, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @f.slope.reverse.DII(
; The copies' adjoints move back as doubles.
; CHECK: call void @slope.move.adjoint.64(
; CHECK-LABEL: define internal void @slope.move.adjoint.64(
; CHECK: load double
