; A load may be repeated in the reverse sweep only if no write that can run
; after it changes its memory -- later iterations included. One Gauss-Seidel
; sweep reads x[i + 1], which the next iteration overwrites: within one
; iteration the load and the store never overlap, but the value must be
; taped. A read-only noalias array in the same loop is loaded again, and so
; is memory written only before the loop that reads it.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@dci = linkonce_odr constant [4 x i8] c"DCI\00"
@di = linkonce_odr constant [3 x i8] c"DI\00"

; sweep(x, w, n): for i in 1..n-2: x[i] = w[i] * x[i-1] * x[i+1]; returns x[n-2].
define double @sweep(ptr noalias %x, ptr noalias %w, i64 %n) {
entry:
  %last = add nsw i64 %n, -1
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %i.prev = add nsw i64 %i, -1
  %i.next = add nuw nsw i64 %i, 1
  %p.prev = getelementptr inbounds double, ptr %x, i64 %i.prev
  %p.next = getelementptr inbounds double, ptr %x, i64 %i.next
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %q = getelementptr inbounds double, ptr %w, i64 %i
  %a = load double, ptr %p.prev, align 8
  %b = load double, ptr %p.next, align 8
  %c = load double, ptr %q, align 8
  %ab = fmul double %a, %b
  %v = fmul double %ab, %c
  store double %v, ptr %p, align 8
  %done = icmp eq i64 %i.next, %last
  br i1 %done, label %exit, label %loop
exit:
  ret double %v
}

; sweeps(x, n, m): m sweeps of x[i] = x[i-1] * x[i]: the next sweep writes
; x[i - 1] again after this one read it.
define double @sweeps(ptr noalias %x, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %s = phi i64 [ 0, %entry ], [ %s.next, %outer.latch ]
  br label %loop
loop:
  %i = phi i64 [ 1, %outer ], [ %i.next, %loop ]
  %i.prev = add nsw i64 %i, -1
  %i.next = add nuw nsw i64 %i, 1
  %p.prev = getelementptr inbounds double, ptr %x, i64 %i.prev
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %a = load double, ptr %p.prev, align 8
  %b = load double, ptr %p, align 8
  %v = fmul double %a, %b
  store double %v, ptr %p, align 8
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %outer.latch, label %loop
outer.latch:
  %s.next = add nuw nsw i64 %s, 1
  %all = icmp eq i64 %s.next, %m
  br i1 %all, label %exit, label %outer
exit:
  ret double %v
}

; squares(x, n): a local copy of x[i]^2, then the sum of its squares; the
; copy is written only before the loop that reads it.
define double @squares(ptr noalias %x, i64 %n) {
entry:
  %tmp = alloca [16 x double], align 8
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %t = getelementptr inbounds double, ptr %tmp, i64 %i
  store double %v, ptr %t, align 8
  %i.next = add nuw nsw i64 %i, 1
  %filled = icmp eq i64 %i.next, %n
  br i1 %filled, label %sum, label %fill
sum:
  %j = phi i64 [ 0, %fill ], [ %j.next, %sum ]
  %s = phi double [ 0.0, %fill ], [ %s.next, %sum ]
  %u = getelementptr inbounds double, ptr %tmp, i64 %j
  %y = load double, ptr %u, align 8
  %sin = call double @llvm.sin.f64(double %y)
  %s.next = call double @llvm.fmuladd.f64(double %sin, double %y, double %s)
  %j.next = add nuw nsw i64 %j, 1
  %summed = icmp eq i64 %j.next, %n
  br i1 %summed, label %exit, label %sum
exit:
  ret double %s.next
}

declare double @llvm.sin.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvlS2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, ptr, ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvllS2_DnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr)
@dii = linkonce_odr constant [4 x i8] c"DII\00"

define void @caller(ptr %x, ptr %w, i64 %n, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_DnDnEEEvPKvPKcS2_DpT_(ptr @sweep, ptr @dci, ptr %out, ptr %x, ptr %w, i64 %n, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_DnDnEEEvPKvPKcS2_DpT_(ptr @sweeps, ptr @dii, ptr %out, ptr %x, i64 %n, i64 %n, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvlS2_DnEEEvPKvPKcS2_DpT_(ptr @squares, ptr @di, ptr %out, ptr %x, i64 %n, ptr %dx, ptr null)
  ret void
}

; x[i + 1] goes on the tape. x[i - 1] is loaded again: the store runs
; ahead of it (x[j] for j >= i, scalar evolution says), and no loop
; encloses this one to run the store again. w[i] is loaded again.
; CHECK-LABEL: define internal { double } @sweep.slope.reverse.DCI(
; CHECK: loop:
; CHECK: store double %b, ptr
; CHECK-NOT: store double %a, ptr
; CHECK: loop.rev:
; CHECK-DAG: %b.tape = load double
; CHECK-DAG: %a.redo = load double
; CHECK-DAG: %c.redo = load double, ptr %q.redo
; CHECK: ret { double }

; The copy's elements are loaded again in the reverse of the second loop.
; CHECK-LABEL: define internal { double } @squares.slope.reverse.DI(
; CHECK: sum.rev:
; CHECK: %y.redo = load double, ptr %u.redo
; CHECK: ret { double }

; Inside an outer loop nothing is loaded again from x: both loads are taped.
; CHECK-LABEL: define internal { double } @sweeps.slope.reverse.DII(
; CHECK-NOT: {{%a|%b}}.redo = load
; CHECK-DAG: %a.tape = load double
; CHECK-DAG: %b.tape = load double
; CHECK-NOT: {{%a|%b}}.redo = load
; CHECK: ret { double }
