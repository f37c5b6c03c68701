; Floating-point data the optimizer moved as integers: SSE code that
; broadcasts doubles with _mm_shuffle_epi32 (Eigen's matrix products)
; loads <4 x i32> from x, shuffles pairs of i32 and bit casts them to
; <2 x double>. Before differentiation the load and the shuffles become
; loads and shuffles of doubles, so x's adjoint is not lost: both lanes of
; each broadcast accumulate into x's shadow. y = x0·x0 + x1·x1 summed from
; the broadcasts (lane 0 of b0, lane 1 of b1).
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DD\00"

define void @f(ptr %x, ptr %y) {
  %bits = load <4 x i32>, ptr %x, align 8
  %lo = shufflevector <4 x i32> %bits, <4 x i32> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  %hi = shufflevector <4 x i32> %bits, <4 x i32> poison, <4 x i32> <i32 2, i32 3, i32 2, i32 3>
  %b0 = bitcast <4 x i32> %lo to <2 x double>
  %b1 = bitcast <4 x i32> %hi to <2 x double>
  %sq0 = fmul <2 x double> %b0, %b0
  %sq1 = fmul <2 x double> %b1, %b1
  %e0 = extractelement <2 x double> %sq0, i64 0
  %e1 = extractelement <2 x double> %sq1, i64 1
  %s = fadd double %e0, %e1
  store double %s, ptr %y, align 8
  ret void
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %y, ptr %dx, ptr %dy) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr null, ptr %x, ptr %y, ptr %dx, ptr %dy)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.reverse.DD(
; CHECK-NOT: load {{.*}}i32
; CHECK: load double, ptr %x
; The seed, then 2·x1·seed into x̄[1] and 2·x0·seed into x̄[0].
; CHECK: [[SEED:%.*]] = load double, ptr %y.shadow
; CHECK-DAG: [[D1:%.*]] = fmul double %bits1.i1, [[SEED]]
; CHECK-DAG: [[D0:%.*]] = fmul double %bits1.i0, [[SEED]]
; CHECK-DAG: store double {{%.*}}, ptr %x.i1.shadow
; CHECK-DAG: store double {{%.*}}, ptr %x.shadow
; CHECK: ret void
