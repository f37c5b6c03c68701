; The shadow of a pointer loaded from memory (a std::vector's data pointer
; in a struct) is loaded again in the reverse sweep when the primal load
; is: no later write may change the pointer, so none changes its shadow
; twin either (shadow pointers are written only where the primal writes
; pointers). Where a later iteration overwrites the pointer (buffers
; swapped each step), both stay on the tape.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DI\00"

; double f(struct { double *data; } *s, int n): squares data[i] in place
; for odd i. (The pointer is loaded in the iterations that use it only: a
; load in every iteration would be read once before the loop.)
define double @f(ptr %s, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %latch ]
  %odd = trunc i32 %i to i1
  br i1 %odd, label %body, label %latch

body:
  %data = load ptr, ptr %s, align 8, !tbaa !3
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds double, ptr %data, i64 %idx
  %x = load double, ptr %p, align 8, !tbaa !6
  %sq = fmul double %x, %x
  store double %sq, ptr %p, align 8, !tbaa !6
  %sum = fadd double %acc, %sq
  br label %latch

latch:
  %acc1 = phi double [ %acc, %loop ], [ %sum, %body ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

exit:
  ret double %acc1
}

; double g(struct { double *cur, *next; } *s, int n): next[0] = cur[0]^2,
; then the two pointers swap -- every step.
define double @g(ptr %s, i32 %n) {
entry:
  %nextp = getelementptr inbounds i8, ptr %s, i64 8
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %cur = load ptr, ptr %s, align 8, !tbaa !3
  %next = load ptr, ptr %nextp, align 8, !tbaa !3
  %x = load double, ptr %cur, align 8, !tbaa !6
  %sq = fmul double %x, %x
  store double %sq, ptr %next, align 8, !tbaa !6
  store ptr %next, ptr %s, align 8, !tbaa !3
  store ptr %cur, ptr %nextp, align 8, !tbaa !3
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

exit:
  %last = load ptr, ptr %s, align 8, !tbaa !3
  %r = load double, ptr %last, align 8, !tbaa !6
  ret double %r
}

declare void @_ZN5slope6detail14reverse_markerIJPviS2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i32, ptr, ptr)

define void @caller(ptr %s, ptr %ds, ptr %out, i32 %n) {
  call void @_ZN5slope6detail14reverse_markerIJPviS2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr %out, ptr %s, i32 %n, ptr %ds, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPviS2_S2_EEEvPKvPKcS2_DpT_(ptr @g, ptr @desc, ptr %out, ptr %s, i32 %n, ptr %ds, ptr null)
  ret void
}

; (The derivatives come out in the order g, f.)
; CHECK-LABEL: define internal { double } @g.slope.reverse.DI(
; CHECK-DAG: %cur.shadow.tape = load ptr
; CHECK-DAG: %next.shadow.tape = load ptr
; CHECK-NOT: .shadow.redo = load ptr
; CHECK: ret { double }

; CHECK-LABEL: define internal { double } @f.slope.reverse.DI(
; CHECK-NOT: %data.shadow.tape
; CHECK: %data.shadow.redo = load ptr, ptr %s.shadow
; CHECK-NOT: %data.shadow.tape
; CHECK: {{^}$}}

!0 = !{!"Simple C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"any pointer", !1, i64 0}
!3 = !{!2, !2, i64 0}
!4 = !{!"double", !1, i64 0}
!6 = !{!4, !4, i64 0}
