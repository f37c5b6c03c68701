; On Linux with glibc each thread keeps its largest tape buffer (up to
; 256 MiB) for its next gradient instead of handing it back to the C
; library: the derivative takes the kept buffer on entry and releases its
; own on return; the first kept buffer registers its free for thread exit.
; Elsewhere (here: CUDA device code) the buffer is freed on return.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S \
; RUN:   -mtriple=nvptx64-nvidia-cuda %s | FileCheck --check-prefix=DEVICE %s

target triple = "x86_64-pc-linux-gnu"

@desc = linkonce_odr constant [3 x i8] c"AI\00"

; f(x, n) = x^n by repeated multiplication (n >= 1)
define double @f(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r = phi double [ 1.0, %entry ], [ %r.next, %loop ]
  %r.next = fmul double %r, %x
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %r.next
}

declare void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, i32, ptr, ptr)

define void @caller(double %x, i32 %n, ptr %dx) {
  call void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr @f, ptr @desc, ptr null, double %x, i32 %n, ptr %dx, ptr null)
  ret void
}

; CHECK: @slope.tape.kept = linkonce_odr hidden thread_local global { ptr, i64, i1 } zeroinitializer

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.AI.noresult(
; CHECK: call { ptr, i64 } @slope.tape.take()
; CHECK: call { ptr, i64 } @slope.tape.grow(
; CHECK: call void @slope.tape.release(ptr
; CHECK-NOT: call void @free(
; CHECK: ret { double, double }

; The take is a call (the optimizer inlines it later) so that a derivative
; differentiated again can start from an empty tape instead.
; CHECK-LABEL: define internal { ptr, i64 } @slope.tape.take()
; CHECK: [[KEPT:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@slope.tape.kept)
; CHECK: [[BASE:%.*]] = getelementptr inbounds { ptr, i64, i1 }, ptr [[KEPT]], i32 0, i32 0
; CHECK: load ptr, ptr [[BASE]]
; CHECK: store ptr null, ptr [[BASE]]

; CHECK-LABEL: define internal void @slope.tape.release(ptr %0, i64 %1)
; CHECK: icmp ule i64 %1, 268435456
; CHECK: call i32 @__cxa_thread_atexit_impl(ptr @slope.tape.drop, ptr null, ptr @__dso_handle)

; CHECK-LABEL: define internal void @slope.tape.drop(ptr %0)
; CHECK: call void @free(

; DEVICE-NOT: slope.tape.kept
; DEVICE: call void @free(
; DEVICE-NOT: slope.tape.kept
