; Forward mode through memory: tangents are loaded from and stored to the
; shadows, next to the primal loads and stores.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DD\00"

define void @f(ptr %x, ptr %y) {
  %x0 = load double, ptr %x, align 8
  %s = call double @llvm.sqrt.f64(double %x0)
  store double %s, ptr %y, align 8
  ret void
}

declare double @llvm.sqrt.f64(double)
declare void @_ZN5slope6detail14forward_markerIJPvS2_S2_S2_EEEvPKvPKcS2_S2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %y, ptr %tx, ptr %ty) {
  call void @_ZN5slope6detail14forward_markerIJPvS2_S2_S2_EEEvPKvPKcS2_S2_DpT_(ptr @f, ptr @desc, ptr null, ptr null, ptr %x, ptr %y, ptr %tx, ptr %ty)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.forward.DD(ptr %x, ptr %y, ptr %x.shadow, ptr %y.shadow)
; CHECK: %x0 = load double, ptr %x
; CHECK: %x0.tangent = load double, ptr %x.shadow
; CHECK: %s = call double @llvm.sqrt.f64(double %x0)
; CHECK: [[R:%.*]] = fdiv double 1.000000e+00, %s
; CHECK: [[P:%.*]] = fmul double [[R]], 5.000000e-01
; CHECK: fmul double [[P]], %x0.tangent
; CHECK: store double %s, ptr %y
; CHECK: store double %s.tangent, ptr %y.shadow
