; An over-aligned allocation (here aligned_alloc; operator new with
; std::align_val_t alike) gets a shadow with the same alignment -- accesses
; mirrored from the primal may assume it -- and the shadow goes back
; through the header's record of where its block starts.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"D\00"

define double @f(ptr %x) {
  %buf = call ptr @aligned_alloc(i64 64, i64 64)
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %buf, align 64
  %a = load double, ptr %buf, align 64
  %r = fmul double %a, %x0
  call void @free(ptr %buf)
  ret double %r
}

declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr %out, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal { double } @f.slope.reverse.D(
; CHECK: %buf.shadow = call ptr @slope.shadow.alloc.aligned(i64 64, i64 64)
; CHECK: call void @slope.shadow.free(ptr nonnull %buf.shadow)
; CHECK-LABEL: define internal noalias ptr @slope.shadow.alloc.aligned(i64 %0, i64 %1)
; CHECK: call ptr @aligned_alloc(
; CHECK: call void @llvm.memset
; CHECK-LABEL: define internal void @slope.shadow.free(ptr %0)
; The block to free is recorded 8 bytes in front of the data.
; CHECK: [[AT:%.*]] = getelementptr i8, ptr %0, i64 -8
; CHECK: [[BASE:%.*]] = load ptr, ptr [[AT]]
; CHECK: call void @free(ptr [[BASE]])
