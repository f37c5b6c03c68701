; Forward mode frees a heap shadow with its primal, also for a pointer
; loaded from memory the function allocated and reached through a phi
; whose other incoming value is undef (a value computed on one branch
; only): undef is never a block to free.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [4 x i8] c"DDC\00"

define void @f(ptr %x, ptr %y, i32 %n) {
entry:
  %keep = icmp sgt i32 %n, 0
  br i1 %keep, label %make, label %join

make:
  %record = call ptr @malloc(i64 8)
  %copy = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x, align 8
  store double %x0, ptr %copy, align 8
  store ptr %copy, ptr %record, align 8
  br label %join

join:
  %kept = phi ptr [ %record, %make ], [ undef, %entry ]
  br i1 %keep, label %use, label %done

use:
  %buffer = load ptr, ptr %kept, align 8
  %v = load double, ptr %buffer, align 8
  %sq = fmul double %v, %v
  store double %sq, ptr %y, align 8
  call void @free(ptr %buffer)
  call void @free(ptr %kept)
  br label %done

done:
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @_ZN5slope6detail14forward_markerIJPvS2_iS2_S2_iEEEvPKvPKcS2_S2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, i32, ptr, ptr, i32)

define void @caller(ptr %x, ptr %y, ptr %tx, ptr %ty, i32 %keep) {
  call void @_ZN5slope6detail14forward_markerIJPvS2_iS2_S2_iEEEvPKvPKcS2_S2_DpT_(ptr @f, ptr @desc, ptr null, ptr null, ptr %x, ptr %y, i32 %keep, ptr %tx, ptr %ty, i32 0)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.forward.DDC(
; CHECK: %record.shadow = call ptr @slope.shadow.alloc(
; CHECK: %copy.shadow = call ptr @slope.shadow.alloc(
; CHECK: store ptr %copy.shadow, ptr %record.shadow
; CHECK: %kept.shadow = phi ptr [ %record.shadow, %make ], [ null, %entry ]
; CHECK: %buffer.shadow = load ptr, ptr %kept.shadow
; CHECK: call void @free(ptr nonnull %buffer)
; CHECK-NEXT: call void @slope.shadow.free(ptr nonnull %buffer.shadow)
; CHECK-NEXT: call void @free(ptr nonnull %kept)
; CHECK-NEXT: call void @slope.shadow.free(ptr nonnull %kept.shadow)
