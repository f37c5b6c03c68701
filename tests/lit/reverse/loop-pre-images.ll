; A load in a time loop whose memory only a store in a later loop of the
; step overwrites is not taped: where that loop starts, the primal sweep
; copies the memory the store covers over the whole loop (its footprint,
; one range per call) to the tape; where the reverse sweep leaves the
; loop, the copy goes back, and the load is repeated from memory. The
; footprint is saved as the primal sweep leaves it and put back at the end.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [4 x i8] c"DII\00"

; k steps of: s += Σ x[i]²; then x[i] = 0.5·x[i] for every i (a loop of its own).
define double @steps(ptr noalias %x, i64 %n, i64 %k) {
entry:
  br label %step
step:
  %r = phi i64 [ 0, %entry ], [ %r.next, %update.done ]
  %s = phi double [ 0.0, %entry ], [ %acc.next, %update.done ]
  br label %read
read:
  %i = phi i64 [ 0, %step ], [ %i.next, %read ]
  %acc = phi double [ %s, %step ], [ %acc.next, %read ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xp, align 8
  %sq = fmul double %v, %v
  %acc.next = fadd double %acc, %sq
  %i.next = add nuw nsw i64 %i, 1
  %read.done = icmp eq i64 %i.next, %n
  br i1 %read.done, label %update.pre, label %read
update.pre:
  br label %update
update:
  %j = phi i64 [ 0, %update.pre ], [ %j.next, %update ]
  %yp = getelementptr inbounds double, ptr %x, i64 %j
  %w = load double, ptr %yp, align 8
  %half = fmul double %w, 5.000000e-01
  store double %half, ptr %yp, align 8
  %j.next = add nuw nsw i64 %j, 1
  %update.end = icmp eq i64 %j.next, %n
  br i1 %update.end, label %update.done, label %update
update.done:
  %r.next = add nuw nsw i64 %r, 1
  %steps.done = icmp eq i64 %r.next, %k
  br i1 %steps.done, label %exit, label %step
exit:
  ret double %acc.next
}

declare void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, i64 %k, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @steps, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %k, ptr %dx, ptr null, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @steps.slope.reverse.DII(
; The footprint of the store, n doubles from x, computed once.
; CHECK: entry:
; CHECK: %[[BYTES:.*]] = add nuw nsw i64 %{{.*}}, 8
; Copied where the update loop starts.
; CHECK: update.preheader:
; CHECK: %[[ROOM:.*]] = call { ptr, i64 } @slope.tape.ensure(
; CHECK-NEXT: %[[BASE:.*]] = extractvalue { ptr, i64 } %[[ROOM]], 0
; CHECK: %[[COPY:.*]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %tape.size.0
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%[[COPY]], ptr {{.*}}%x, i64 %[[BYTES]], i1 false)
; The end of the primal sweep: x as it leaves it.
; CHECK: exit:
; CHECK-NEXT: %[[FINAL:.*]] = call ptr @malloc(i64 %[[BYTES]])
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%[[FINAL]], ptr {{.*}}%x, i64 %[[BYTES]], i1 false)
; The reads of the step, loaded again from memory.
; CHECK: read.rev:
; CHECK: %[[AT:.*]] = getelementptr inbounds double, ptr %x, i64 %reverse.iteration
; CHECK-NEXT: %v.pre = load double, ptr %[[AT]]
; At the end, x as the primal sweep left it.
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%x, ptr {{.*}}%[[FINAL]], i64 %[[BYTES]], i1 false)
; CHECK-NEXT: call void @free(ptr %[[FINAL]])
; CHECK: ret { double }
; Where the reverse sweep leaves the update loop, before the reads'
; reverse: the pre-image goes back and is freed.
; CHECK: update.rev.leave:
; CHECK-NEXT: %[[BELOW:.*]] = sub i64 %tape.size.1,
; CHECK-NEXT: %[[PRE:.*]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %[[BELOW]]
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%x, ptr {{.*}}%[[PRE]], i64 %[[BYTES]], i1 false)
; CHECK-NEXT: br label %read.rev

; REMARK-NOT: tapes a double loaded from memory
; REMARK: loaded again after the pre-images of the writes that overwrite it are put back
; REMARK-NOT: tapes
; REMARK-NOT: tapes a double loaded from memory
