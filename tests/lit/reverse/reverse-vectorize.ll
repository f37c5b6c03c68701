; The reverse sweep runs a loop nest backwards: the outer loop walks the
; shadows downward. LLVM's loop vectorizer widens the overlap test of an
; inner loop to the whole nest, to hoist it; for a negative outer stride it
; adds a stride test that always fails (LLVM 19), so its vector loop never
; runs (the LLVM prefix). slope-reverse-vectorize vectorizes the reverse
; sweeps first, with the overlap test made where the inner loop starts.
; RUN: %opt -load-pass-plugin=%slope_pass -S %s \
; RUN:   -passes='slope,function(slope-adjoint-windows,slope-reverse-vectorize)' \
; RUN:   | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -S %s \
; RUN:   -passes='slope,function(slope-adjoint-windows,loop-vectorize)' \
; RUN:   | FileCheck --check-prefix=LLVM %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@desc = linkonce_odr constant [4 x i8] c"DDI\00"

; u[i·n + j] = 2·s[i·n + j] for every row i < n and column j < n (plain
; pointers: u and s may overlap); returns u[0].
define double @rows(ptr %u, ptr %s, i64 %n) {
entry:
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  %base = mul nuw nsw i64 %i, %n
  br label %col
col:
  %j = phi i64 [ 0, %row ], [ %j.next, %col ]
  %c = add nuw nsw i64 %base, %j
  %sp = getelementptr inbounds double, ptr %s, i64 %c
  %sv = load double, ptr %sp, align 8
  %twice = fmul double %sv, 2.0
  %up = getelementptr inbounds double, ptr %u, i64 %c
  store double %twice, ptr %up, align 8
  %j.next = add nuw nsw i64 %j, 1
  %col.done = icmp eq i64 %j.next, %n
  br i1 %col.done, label %row.end, label %col
row.end:
  %i.next = add nuw nsw i64 %i, 1
  %rows.done = icmp eq i64 %i.next, %n
  br i1 %rows.done, label %exit, label %row
exit:
  %first = load double, ptr %u, align 8
  ret double %first
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_S2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, ptr)

define void @caller(ptr %u, ptr %du, ptr %s, ptr %ds, i64 %n, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_lS2_S2_DnEEEvPKvPKcS2_DpT_(ptr @rows, ptr @desc, ptr %out, ptr %u, ptr %s, i64 %n, ptr %du, ptr %ds, ptr null)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @rows.slope.reverse.DDI(
; CHECK: row.end.rev:
; The test: this row's ranges of the two shadows, no stride test.
; CHECK: vector.memcheck{{[0-9]*}}:
; CHECK-NEXT: %bound0 = icmp ult ptr
; CHECK-NEXT: %bound1 = icmp ult ptr
; CHECK-NEXT: %found.conflict = and i1 %bound0, %bound1
; CHECK-NEXT: br i1 %found.conflict
; CHECK: vector.body{{[0-9]*}}:
; CHECK: load <2 x double>, ptr
; CHECK: store <2 x double> zeroinitializer
; CHECK: fadd nsz <2 x double>
; CHECK: ret

; LLVM-LABEL: define internal {{.*}} @rows.slope.reverse.DDI(
; LLVM: row.end.rev:
; LLVM: %found.conflict = and i1 %bound0, %bound1
; LLVM-NEXT: %stride.check = icmp slt i64 %[[STRIDE:.*]], 0
