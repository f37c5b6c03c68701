; A reverse marker that gives every pointer argument's extent (the trailing
; i64 operands, in bytes) gets a second derivative, with noalias pointer
; parameters, which the caller runs when a run-time test finds the
; arguments' ranges (and the shadows') apart. Not when an extent is 0,
; when the function writes memory not reached through its parameters, or
; in an -O0 (optnone) caller.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s \
; RUN:   | FileCheck --check-prefix=NONE %s

@ddi = linkonce_odr constant [4 x i8] c"DDI\00"
@counter = global double 0.0

; squares(a, out, n): out[i] = a[i]^2; in plain C out may be a.
define void @squares(ptr %a, ptr %out, i32 %n) {
entry:
  %n64 = zext i32 %n to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  %q = getelementptr inbounds double, ptr %out, i64 %i
  store double %sq, ptr %q, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n64
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The same, also counting in a global.
define void @counted(ptr %a, ptr %out, i32 %n) {
entry:
  %n64 = zext i32 %n to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  %q = getelementptr inbounds double, ptr %out, i64 %i
  store double %sq, ptr %q, align 8
  store double 1.0, ptr @counter, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n64
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnmmmEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, i64, i64, i64)

; CHECK-LABEL: define void @caller(
; CHECK: [[A:%.*]] = ptrtoint ptr %a to i64
; CHECK: [[AEND:%.*]] = add i64 [[A]], %abytes
; CHECK: [[OUT:%.*]] = ptrtoint ptr %out to i64
; CHECK: [[OUTEND:%.*]] = add i64 [[OUT]], %outbytes
; CHECK: icmp ule i64 [[AEND]], [[OUT]]
; CHECK: icmp ule i64 [[OUTEND]], [[A]]
; CHECK: br i1 [[APART:%.*]], label %[[FAST:.*]], label %[[SLOW:.*]]
; CHECK: [[FAST]]:
; CHECK-NEXT: call void @squares.slope.reverse.DDI.disjoint(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout)
; CHECK: [[SLOW]]:
; CHECK-NEXT: call void @squares.slope.reverse.DDI(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout)
define void @caller(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, i64 %abytes, i64 %outbytes) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnmmmEEEvPKvPKcS2_DpT_(ptr @squares, ptr @ddi, ptr null, ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr null, i64 %abytes, i64 %outbytes, i64 0)
  ret void
}

; out's extent unknown: the plain derivative alone.
; CHECK-LABEL: define void @unknownExtent(
; CHECK-NOT: icmp ule
; CHECK: call void @squares.slope.reverse.DDI(ptr %a
; CHECK-NEXT: ret void
define void @unknownExtent(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, i64 %abytes) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnmmmEEEvPKvPKcS2_DpT_(ptr @squares, ptr @ddi, ptr null, ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr null, i64 %abytes, i64 0, i64 0)
  ret void
}

; A store to a global: the plain derivative alone.
; CHECK-LABEL: define void @writesGlobal(
; CHECK-NOT: icmp ule
; CHECK: call void @counted.slope.reverse.DDI(ptr %a
; CHECK-NEXT: ret void
define void @writesGlobal(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, i64 %abytes, i64 %outbytes) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnmmmEEEvPKvPKcS2_DpT_(ptr @counted, ptr @ddi, ptr null, ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr null, i64 %abytes, i64 %outbytes, i64 0)
  ret void
}

; -O0: the plain derivative alone.
; CHECK-LABEL: define void @unoptimized(
; CHECK-NOT: icmp ule
; CHECK: call void @squares.slope.reverse.DDI(ptr %a
; CHECK-NEXT: ret void
define void @unoptimized(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, i64 %abytes, i64 %outbytes) noinline optnone {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnmmmEEEvPKvPKcS2_DpT_(ptr @squares, ptr @ddi, ptr null, ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr null, i64 %abytes, i64 %outbytes, i64 0)
  ret void
}

; Without the test, a[i] goes on the tape.
; CHECK-LABEL: define internal void @squares.slope.reverse.DDI(ptr %a, ptr %out,
; CHECK: call { ptr, i64 } @slope.tape.grow(
; CHECK: ret void

; With a and out apart, a[i] is loaded again in the reverse sweep: no tape.
; CHECK-LABEL: define internal void @squares.slope.reverse.DDI.disjoint(ptr noalias %a, ptr noalias %out,
; CHECK-NOT: slope.tape.grow
; CHECK: load double, ptr %p.redo
; CHECK: ret void

; NONE-NOT: @counted.slope.reverse.DDI.disjoint
