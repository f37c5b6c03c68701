; Heap shadows come from blocks the thread kept when earlier shadows were
; freed (ShadowCache.h), zeroed again, or else from calloc; a freed
; calloc'd shadow's block is kept while there is room (16 blocks, 64 MiB)
; and the first one kept registers their release for the thread's exit.
; Aligned shadows are freed. Only where code runs at thread exit: not in
; CUDA device code.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S \
; RUN:   -mtriple=nvptx64-nvidia-cuda %s | FileCheck --check-prefix=DEVICE %s

target triple = "x86_64-pc-linux-gnu"

@desc = linkonce_odr constant [3 x i8] c"DD\00"

; y = x² through a heap cell.
define void @f(ptr %x, ptr %y) {
entry:
  %cell = call noalias ptr @malloc(i64 8)
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %cell, align 8
  %v = load double, ptr %cell, align 8
  store double %v, ptr %y, align 8
  call void @free(ptr %cell)
  ret void
}

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %y, ptr %dx, ptr %dy) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr null, ptr %x, ptr %y, ptr %dx, ptr %dy)
  ret void
}

; CHECK: @slope.shadow.cache = linkonce_odr hidden thread_local global { [16 x ptr], [16 x i64], i64, i1 } zeroinitializer

; CHECK-LABEL: define internal void @f.slope.reverse.DD(
; CHECK: %cell.shadow = call ptr @slope.shadow.alloc(i64 8)
; CHECK: call void @slope.shadow.free(ptr

; A kept block when one fits (zeroed again), else calloc.
; CHECK-LABEL: define internal noalias ptr @slope.shadow.alloc(i64 %0)
; CHECK: [[TOTAL:%.*]] = add i64 %0, 16
; CHECK: [[KEPT:%.*]] = call ptr @slope.shadow.cache.take(i64 [[TOTAL]])
; CHECK: br i1 {{.*}}, label %allocate, label %reuse
; CHECK: reuse:
; CHECK: call void @llvm.memset.p0.i64(ptr align 16 [[KEPT]], i8 0, i64 [[TOTAL]], i1 false)
; CHECK: allocate:
; CHECK: call ptr @calloc(i64 1, i64 [[TOTAL]])

; A fitting block: at least the size asked for, at most twice it + 256.
; CHECK-LABEL: define internal ptr @slope.shadow.cache.take(i64 %0)
; CHECK: [[DOUBLE:%.*]] = shl i64 %0, 1
; CHECK: [[MOST:%.*]] = add i64 [[DOUBLE]], 256
; CHECK: loop:
; CHECK: icmp uge i64 [[CAPACITY:%.*]], %0
; CHECK: icmp ule i64 [[CAPACITY]], [[MOST]]
; CHECK: found:
; CHECK: store ptr null
; CHECK: store i64 0

; Only calloc'd shadows (header right before the data) are kept.
; CHECK-LABEL: define internal void @slope.shadow.free(ptr %0)
; CHECK: [[BASE:%.*]] = load ptr, ptr
; CHECK: [[HEADER:%.*]] = getelementptr i8, ptr %0, i64 -16
; CHECK: icmp eq ptr [[BASE]], [[HEADER]]
; CHECK: free:
; CHECK: call void @free(ptr [[BASE]])
; CHECK: keep:
; CHECK: call i1 @slope.shadow.cache.keep(ptr [[BASE]])

; CHECK-LABEL: define internal i1 @slope.shadow.cache.keep(ptr %0)
; CHECK: call i64 @malloc_usable_size(ptr %0)
; CHECK: icmp ule i64 {{.*}}, 67108864
; CHECK: register:
; CHECK: call i32 @__cxa_thread_atexit_impl(ptr @slope.shadow.cache.drop, ptr null, ptr @__dso_handle)

; CHECK-LABEL: define internal void @slope.shadow.cache.drop(ptr %0)
; CHECK: call void @free(

; DEVICE-NOT: slope.shadow.cache
