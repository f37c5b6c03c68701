; The reverse of an increment `t[i] += x[i]·x[i]` reads t's shadow, zeroes
; it and adds it back to itself (the adjoint of the old t[i]). The addition
; ignores the sign of zero (nsz: an adjoint of -0 and one of +0 are the
; same derivative), so it folds to the value read, and the finished
; derivative (GVN, dead store elimination) keeps neither the zeroing nor
; the store back. The scratch array's shadow comes from
; slope.shadow.alloc, which returns storage apart from everything else
; (noalias): no access of x's shadow in between can touch it.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DI\00"

declare noalias ptr @malloc(i64)
declare void @free(ptr)

; t = copy of x; t[i] += x[i]²; returns Σ t[i]·t[i].
define double @bumps(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %t = call ptr @malloc(i64 %bytes)
  br label %copy
copy:
  %i = phi i64 [ 0, %entry ], [ %i.next, %copy ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %xp, align 8
  %tp = getelementptr inbounds double, ptr %t, i64 %i
  store double %xv, ptr %tp, align 8
  %i.next = add nuw nsw i64 %i, 1
  %copy.done = icmp eq i64 %i.next, %n
  br i1 %copy.done, label %bump, label %copy
bump:
  %j = phi i64 [ %j.next, %bump ], [ 0, %copy ]
  %xq = getelementptr inbounds double, ptr %x, i64 %j
  %xw = load double, ptr %xq, align 8
  %sq = fmul double %xw, %xw
  %tq = getelementptr inbounds double, ptr %t, i64 %j
  %old = load double, ptr %tq, align 8
  %new = fadd double %old, %sq
  store double %new, ptr %tq, align 8
  %j.next = add nuw nsw i64 %j, 1
  %bump.done = icmp eq i64 %j.next, %n
  br i1 %bump.done, label %sum, label %bump
sum:
  %k = phi i64 [ %k.next, %sum ], [ 0, %bump ]
  %s = phi double [ %s.next, %sum ], [ 0.0, %bump ]
  %tr = getelementptr inbounds double, ptr %t, i64 %k
  %tv = load double, ptr %tr, align 8
  %s.next = call double @llvm.fmuladd.f64(double %tv, double %tv, double %s)
  %k.next = add nuw nsw i64 %k, 1
  %sum.done = icmp eq i64 %k.next, %n
  br i1 %sum.done, label %exit, label %sum
exit:
  call void @free(ptr %t)
  ret double %s.next
}

declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJPvlS2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvlS2_DnEEEvPKvPKcS2_DpT_(ptr @bumps, ptr @desc, ptr %out, ptr %x, i64 %n, ptr %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @bumps.slope.reverse.DI(
; CHECK: %[[SHADOW:.*]] = {{.*}}call ptr @slope.shadow.alloc(
; The increment's reverse: t's shadow is read, never zeroed or stored.
; CHECK: bump.rev:
; CHECK: %[[AT:.*]] = getelementptr inbounds double, ptr %[[SHADOW]]
; CHECK-NEXT: %[[ADJ:.*]] = load double, ptr %[[AT]]
; CHECK-NOT: store double {{.*}}, ptr %[[AT]]
; CHECK: br i1 %{{.*}}, label %{{.*}}, label %bump.rev
; CHECK-LABEL: define internal noalias ptr @slope.shadow.alloc(
