; Reverse mode through a counted loop: the primal sweep counts iterations
; and tapes only what the reverse sweep cannot recompute (here x·r, the
; running product); the reverse loop counts down from the last iteration,
; and the tape is reserved at loop entry and freed before returning.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"AI\00"

; f(x, n) = x^n by repeated multiplication
define double @f(double %x, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r = phi double [ 1.0, %entry ], [ %r.next, %loop ]
  %r.next = fmul double %r, %x
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %result = phi double [ 1.0, %entry ], [ %r.next, %loop ]
  ret double %result
}

declare void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, i32, ptr, ptr)

define void @caller(double %x, i32 %n, ptr %dx) {
  call void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr @f, ptr @desc, ptr null, double %x, i32 %n, ptr %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.AI.noresult(double %x, i32 %n, double %seed)
; Room for the whole loop is reserved before it starts: trip count × 8 bytes.
; CHECK: [[BYTES:%.*]] = shl nuw nsw i64 {{%.*}}, 3
; CHECK: call { ptr, i64 } @slope.tape.grow(
; In the loop, one double per iteration goes on the tape: the running product.
; CHECK: loop:
; CHECK: store double %r, ptr
; The reverse loop reads it back, top of the stack first ...
; CHECK: [[R:%.*]] = load double, ptr
; CHECK: fmul double {{.*}}[[R]]
; ... and counts down to iteration 0 instead of reading taped edges.
; CHECK: icmp eq i64 {{%.*}}, 0
; CHECK: call void @free(ptr
; CHECK: ret { double, double }

; The grow function reallocates geometrically and traps when out of memory.
; CHECK-LABEL: define internal { ptr, i64 } @slope.tape.grow(ptr %0, i64 %1, i64 %2)
; CHECK: call ptr @realloc(
; CHECK: call void @llvm.trap()
