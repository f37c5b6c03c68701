; A value loaded (through a gather) from memory that only a memcpy
; overwrites is not taped: the primal sweep copies what each execution of
; the memcpy overwrites to the tape (its pre-image), and the reverse sweep
; copies the pre-image back where it reverses the memcpy, then loads the
; gather again from memory. What the primal sweep left in x is saved before
; the reverse sweep and put back at the end.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [6 x i8] c"DDIII\00"

; k rounds of: s += Σ x[idx[i]]², y[i] = x[idx[i]]²; then x = y.
define double @rounds(ptr noalias %x, ptr noalias %y, ptr noalias %idx, i64 %n, i64 %k) {
entry:
  %bytes = shl i64 %n, 3
  br label %round
round:
  %r = phi i64 [ 0, %entry ], [ %r.next, %copy ]
  %s = phi double [ 0.0, %entry ], [ %acc.next, %copy ]
  br label %elem
elem:
  %i = phi i64 [ 0, %round ], [ %i.next, %elem ]
  %acc = phi double [ %s, %round ], [ %acc.next, %elem ]
  %ip = getelementptr inbounds i32, ptr %idx, i64 %i
  %j = load i32, ptr %ip, align 4
  %j64 = sext i32 %j to i64
  %xp = getelementptr inbounds double, ptr %x, i64 %j64
  %v = load double, ptr %xp, align 8
  %sq = fmul double %v, %v
  %acc.next = fadd double %acc, %sq
  %yp = getelementptr inbounds double, ptr %y, i64 %i
  store double %sq, ptr %yp, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %copy, label %elem
copy:
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %x, ptr align 8 %y, i64 %bytes, i1 false)
  %r.next = add nuw nsw i64 %r, 1
  %rounds.done = icmp eq i64 %r.next, %k
  br i1 %rounds.done, label %exit, label %round
exit:
  ret double %acc.next
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_S2_llS2_S2_DnDnDnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %y, ptr %idx, i64 %n, i64 %k, ptr %dx, ptr %dy, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_S2_llS2_S2_DnDnDnEEEvPKvPKcS2_DpT_(ptr @rounds, ptr @desc, ptr %out, ptr %x, ptr %y, ptr %idx, i64 %n, i64 %k, ptr %dx, ptr %dy, ptr null, ptr null, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @rounds.slope.reverse.DDIII(
; The pre-image, on the tape (room pushed without a branch), then the
; program's own copy.
; CHECK: copy:
; CHECK-NEXT: %[[NEEDED:.*]] = add i64 %tape.size.0, %bytes
; CHECK-NEXT: %[[ROOM:.*]] = call { ptr, i64 } @slope.tape.ensure(ptr %tape.base.0, i64 %tape.capacity.0, i64 %[[NEEDED]])
; CHECK-NEXT: %[[BASE:.*]] = extractvalue { ptr, i64 } %[[ROOM]], 0
; CHECK: %[[COPY:.*]] = getelementptr inbounds i8, ptr %[[BASE]], i64 %tape.size.0
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%[[COPY]], ptr {{.*}}%x, i64 %bytes, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %x, ptr align 8 %y, i64 %bytes, i1 false)
; The end of the primal sweep: x as it leaves it.
; CHECK: exit:
; CHECK-NEXT: %[[FINAL:.*]] = call ptr @malloc(i64 %bytes)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%[[FINAL]], ptr {{.*}}%x, i64 %bytes, i1 false)
; The reverse of the copy puts the pre-image back and pops it: the frames
; pushed after it are popped by then.
; CHECK: copy.rev:
; CHECK: %[[BELOW:.*]] = sub i64 %tape.size.1, %bytes
; CHECK-NEXT: %[[PRE:.*]] = getelementptr inbounds i8, ptr %{{.*}}, i64 %[[BELOW]]
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%x, ptr {{.*}}%[[PRE]], i64 %bytes, i1 false)
; CHECK-NOT: call void @free
; The gather, loaded again from memory.
; CHECK: elem.rev:
; CHECK: %[[AT:.*]] = getelementptr inbounds double, ptr %x, i64 %j64.redo
; CHECK-NEXT: %v.pre = load double, ptr %[[AT]]
; At the end, x as the primal sweep left it.
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%x, ptr {{.*}}%[[FINAL]], i64 %bytes, i1 false)
; CHECK-NEXT: call void @free(ptr %[[FINAL]])
; CHECK: ret { double }

; REMARK-NOT: tapes a double loaded from memory
; REMARK: loaded again after the pre-images of the writes that overwrite it are put back
; REMARK-NOT: tapes
; REMARK-NOT: tapes a double loaded from memory
