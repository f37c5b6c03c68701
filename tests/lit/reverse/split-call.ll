; A recursive call in reverse mode: the call becomes a call of the callee's
; augmented forward, which leaves a record (values its reverse part needs);
; the reverse sweep hands the record to the callee's reverse part, which
; frees it. Here: s(x, n) = n == 0 ? 0 : x[0]·x[0] + s(x + 1, n - 1).
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DI\00"

define double @s(ptr %x, i32 %n) {
entry:
  %done = icmp eq i32 %n, 0
  br i1 %done, label %base, label %step

base:
  ret double 0.0

step:
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  %next = getelementptr inbounds double, ptr %x, i64 1
  %m = add i32 %n, -1
  %rest = call double @s(ptr %next, i32 %m)
  %sum = fadd double %sq, %rest
  ret double %sum
}

declare void @_ZN5slope6detail14reverse_markerIJPviS2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i32, ptr, ptr)

define void @caller(ptr %x, i32 %n, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPviS2_S2_EEEvPKvPKcS2_DpT_(ptr @s, ptr @desc, ptr %out, ptr %x, i32 %n, ptr %dx, ptr null)
  ret void
}

; The combined derivative calls the augmented forward where the primal
; called s, and the reverse part in its reverse sweep.
; CHECK-LABEL: define internal { double } @s.slope.reverse.DI(ptr %x, i32 %n, ptr %x.shadow, double %seed)
; CHECK: %rest = call double @s.slope.augmented.DI{{(\.e[a-z_]+)?}}(ptr {{.*}}%next, i32 %m, ptr {{.*}}%next.shadow, ptr {{.*}}%record.slot)
; CHECK: %record = load ptr, ptr %record.slot
; CHECK: call { double } @s.slope.reverse_part.DI{{(\.e[a-z_]+)?}}(ptr {{.*}}, i32 {{.*}}, ptr {{.*}}, double %seed, ptr %record.cache

; The augmented forward allocates the record and, at the return, keeps in
; it which return was taken and what the reverse part needs (x[0], the
; inner call's record); the record slot of the inner call is in it too.
; CHECK-LABEL: define internal double @s.slope.augmented.DI{{(\.e[a-z_]+)?}}(ptr %x, i32 %n, ptr %x.shadow, ptr %record.out)
; CHECK: [[REC:%.*]] = call ptr @malloc(i64 56)
; CHECK: store ptr [[REC]], ptr %record.out
; CHECK: store i32 0, ptr [[REC]]
; CHECK: store double %x0.cache
; CHECK: ret double %common.ret.op
; CHECK: [[SLOT:%.*]] = getelementptr inbounds i8, ptr [[REC]], i64 48
; CHECK: call double @s.slope.augmented.DI{{(\.e[a-z_]+)?}}({{.*}}, ptr {{.*}}[[SLOT]])

; The reverse part restores them, runs the reverse of the return taken,
; and frees the record; the primal result is the augmented forward's. The
; record parameter says so (forward mode over this part frees its shadow
; as the record is freed).
; CHECK-LABEL: define internal { double } @s.slope.reverse_part.DI{{(\.e[a-z_]+)?}}(ptr %x, i32 %n, ptr %x.shadow, double %seed, ptr "slope-record" %record)
; CHECK: call void @free(ptr %record)
; CHECK-NEXT: ret { double } poison
; CHECK: [[X0:%.*]] = load double, ptr
; CHECK: call { double } @s.slope.reverse_part.DI{{(\.e[a-z_]+)?}}(
; CHECK: fmul double [[X0]], %seed

; No seam markers are left.
; CHECK-NOT: slope.seam
