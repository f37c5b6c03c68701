; A rule registered as an augmented forward and a reverse part keeps one
; record per call: with one lane the call becomes the rule's parts; with
; several lanes the parts cannot serve them all, so the callee's body is
; differentiated instead (with every lane's shadows).
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@one = linkonce_odr constant [3 x i8] c"DD\00"
@two = linkonce_odr constant [6 x i8] c"DD/02\00"

; y[0] = x[0] * x[0]
define void @square(ptr %x, ptr %y) noinline {
entry:
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %y, align 8
  ret void
}

define void @square_forward(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  ret void
}
define ptr @square_augmented(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  ret ptr null
}
define void @square_reverse(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %tape) {
  ret void
}

@rule = internal constant [4 x ptr] [ptr @square, ptr @square_forward, ptr @square_augmented, ptr @square_reverse], section ".slope.rules"

define void @f(ptr %x, ptr %y) {
  call void @square(ptr %x, ptr %y)
  ret void
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ...)

define void @caller(ptr %x, ptr %y, ptr %dx0, ptr %dy0, ptr %dx1, ptr %dy1) {
  call void (ptr, ptr, ptr, ...) @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @one, ptr null, ptr %x, ptr %y, ptr %dx0, ptr %dy0)
  call void (ptr, ptr, ptr, ...) @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @two, ptr null, ptr %x, ptr %y, ptr %dx0, ptr %dy0, ptr %dx1, ptr %dy1)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.reverse.DD.w2(
; CHECK-NOT: @square_augmented
; CHECK: call void @square.slope.augmented.DD.w2(ptr %x, ptr %y, ptr %x.shadow.0, ptr %y.shadow.0, ptr %x.shadow.1, ptr %y.shadow.1,
; CHECK: call void @square.slope.reverse_part.DD.w2(ptr %x, ptr %y, ptr %x.shadow.0, ptr %y.shadow.0, ptr %x.shadow.1, ptr %y.shadow.1,
; CHECK-NOT: @square_reverse
; CHECK-LABEL: define internal void @square.slope.augmented.DD.w2(
; CHECK-LABEL: define internal void @square.slope.reverse_part.DD.w2(

; CHECK-LABEL: define internal void @f.slope.reverse.DD(
; CHECK: call void @square.slope.enzyme_augmented.DD(
; CHECK: call void @square.slope.enzyme_reverse.DD(
; CHECK-LABEL: define internal void @square.slope.enzyme_augmented.DD(
; CHECK: call ptr @square_augmented(
; CHECK-LABEL: define internal void @square.slope.enzyme_reverse.DD(
; CHECK: call void @square_reverse(
