; A value loaded from memory the function never writes is loaded again in
; the reverse sweep instead of being taped; where a store may overwrite the
; location (alias analysis cannot rule it out), the value is taped, and
; -Rpass-analysis=slope says so at the load.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@di = linkonce_odr constant [3 x i8] c"DI\00"
@ddi = linkonce_odr constant [4 x i8] c"DDI\00"

; sumsq(a, n) = sum of a[i]^2 over i < n (n >= 1): a is only read.
define double @sumsq(ptr %a, i32 %n) {
entry:
  %n64 = zext i32 %n to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p, align 8
  %s.next = call double @llvm.fmuladd.f64(double %v, double %v, double %s)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n64
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; squares(a, out, n): out[i] = a[i]^2; out may be a.
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

declare double @llvm.fmuladd.f64(double, double, double)
declare void @_ZN5slope6detail14reverse_markerIJPviS2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i32, ptr, ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr)

define void @caller(ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr %s) {
  call void @_ZN5slope6detail14reverse_markerIJPviS2_DnEEEvPKvPKcS2_DpT_(ptr @sumsq, ptr @di, ptr %s, ptr %a, i32 %n, ptr %da, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnEEEvPKvPKcS2_DpT_(ptr @squares, ptr @ddi, ptr null, ptr %a, ptr %out, i32 %n, ptr %da, ptr %dout, ptr null)
  ret void
}

; No tape at all: the reverse loop reads a[i] again.
; CHECK-LABEL: define internal { double } @sumsq.slope.reverse.DI(
; CHECK-NOT: slope.tape.grow
; CHECK: [[AGAIN:%.*]] = load double, ptr %p.redo
; CHECK: fmul double [[AGAIN]]
; CHECK-NOT: slope.tape.grow
; CHECK: ret { double }

; The store to out may overwrite a[i]: a[i] goes on the tape.
; CHECK-LABEL: define internal void @squares.slope.reverse.DDI(
; CHECK: call { ptr, i64 } @slope.tape.grow(
; CHECK: store double %v, ptr
; CHECK: ret void

; The planner says what it decided, and why.
; REMARK: remark: <unknown>:0:0: in the reverse sweep of 'sumsq' this value is loaded again (no later write may change that memory)
; REMARK-NOT: 'sumsq' tapes
; REMARK: remark: <unknown>:0:0: the reverse sweep of 'squares' tapes a double loaded from memory that a write through another pointer may change (declare the pointer parameters __restrict, or pass every pointer with its extent) (8 bytes each time this runs)
; REMARK-NOT: 'sumsq' tapes
