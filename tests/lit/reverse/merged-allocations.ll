; The optimizer may make an allocation on each of two paths and free
; whichever was made through a phi, though only one path writes active
; values to its buffer (a malloc hoisted into both arms of a loop guard).
; Both allocations get shadows, so the phi and the free have one.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [4 x i8] c"DDI\00"

define void @f(ptr %x, ptr %y, i32 %c) {
entry:
  %cond = icmp ne i32 %c, 0
  br i1 %cond, label %used, label %unused
used:
  %a = call noalias ptr @malloc(i64 8)
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %a, align 8
  %v = load double, ptr %a, align 8
  store double %v, ptr %y, align 8
  br label %join
unused:
  %b = call noalias ptr @malloc(i64 8)
  br label %join
join:
  %p = phi ptr [ %a, %used ], [ %b, %unused ]
  call void @free(ptr %p)
  ret void
}

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr)

; CHECK-LABEL: define void @caller(
; CHECK: call void @f.slope.reverse.DDI(ptr %x, ptr %y, i32 %c, ptr %dx, ptr %dy)
define void @caller(ptr %x, ptr %y, i32 %c, ptr %dx, ptr %dy) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_iS2_S2_DnEEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr null, ptr %x, ptr %y, i32 %c, ptr %dx, ptr %dy, ptr null)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.reverse.DDI(
; CHECK: used:
; CHECK: %a.shadow = call ptr @slope.shadow.alloc(i64 8)
; CHECK: unused:
; CHECK: %b.shadow = call ptr @slope.shadow.alloc(i64 8)
; CHECK: call void @free(ptr %p)
; Each path's reverse frees its own shadow.
; CHECK-DAG: call void @slope.shadow.free(ptr %b.shadow.cache.0)
; CHECK-DAG: call void @slope.shadow.free(ptr nonnull %a.shadow.cache.0)
