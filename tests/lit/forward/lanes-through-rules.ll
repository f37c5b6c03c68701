; A four-entry rule's forward part runs in place of the call: with one
; tangent the call becomes a call of the rule; with several lanes the rule
; would run the call once per lane, so the callee's body is differentiated
; instead, in vector mode.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@one = linkonce_odr constant [3 x i8] c"DD\00"
@two = linkonce_odr constant [6 x i8] c"DD/02\00"

; y[0] += 2 x[0] * x[0], n times
define void @scale(ptr %x, ptr %y, i32 %n) noinline {
entry:
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  %twice = fmul double %sq, 2.0
  %y0 = load double, ptr %y, align 8
  %sum = fadd double %y0, %twice
  store double %sum, ptr %y, align 8
  ret void
}

define void @scale_forward(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
  ret void
}
define ptr @scale_augmented(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
  ret ptr null
}
define void @scale_reverse(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n, ptr %tape) {
  ret void
}

@rule = internal constant [4 x ptr] [ptr @scale, ptr @scale_forward, ptr @scale_augmented, ptr @scale_reverse], section ".slope.rules"

define void @f(ptr %x, ptr %y) {
  call void @scale(ptr %x, ptr %y, i32 3)
  ret void
}

declare void @_ZN5slope6detail14forward_markerIJPvS2_S2_S2_EEEvPKvPKcS2_S2_DpT_(ptr, ptr, ptr, ptr, ...)

define void @caller(ptr %x, ptr %y, ptr %tx, ptr %ty, ptr %tx1, ptr %ty1) {
  call void (ptr, ptr, ptr, ptr, ...) @_ZN5slope6detail14forward_markerIJPvS2_S2_S2_EEEvPKvPKcS2_S2_DpT_(ptr @f, ptr @one, ptr null, ptr null, ptr %x, ptr %y, ptr %tx, ptr %ty)
  call void (ptr, ptr, ptr, ptr, ...) @_ZN5slope6detail14forward_markerIJPvS2_S2_S2_EEEvPKvPKcS2_S2_DpT_(ptr @f, ptr @two, ptr null, ptr null, ptr %x, ptr %y, ptr %tx, ptr %ty, ptr %tx1, ptr %ty1)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.forward.DD.w2(
; CHECK-NOT: @scale_forward
; CHECK: call void @scale.slope.forward.DDI.w2(
; CHECK-NOT: @scale_forward

; The body, differentiated with two lanes: the primal store once, a
; tangent store per lane.
; CHECK-LABEL: define internal void @scale.slope.forward.DDI.w2(
; CHECK-DAG: load double, ptr %x.shadow,
; CHECK-DAG: load double, ptr %x.shadow1,
; CHECK: store double %sum, ptr %y
; CHECK-DAG: store double %{{.*}}, ptr %y.shadow,
; CHECK-DAG: store double %{{.*}}, ptr %y.shadow2,

; CHECK-LABEL: define internal void @f.slope.forward.DD(
; CHECK-NEXT: call void @scale_forward(ptr %x, ptr %x.shadow, ptr %y, ptr %y.shadow, i32 3)
; CHECK-NEXT: ret void
