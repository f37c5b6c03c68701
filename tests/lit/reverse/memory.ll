; Reverse mode through memory: y[0] = x[0] * x[1] with x and y dup'd.
; The reverse of the store moves y's seed out of its shadow and clears it;
; the reverse of each load accumulates into x's shadow.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [3 x i8] c"DD\00"

define void @f(ptr %x, ptr %y) {
  %x1.addr = getelementptr inbounds double, ptr %x, i64 1
  %x0 = load double, ptr %x, align 8
  %x1 = load double, ptr %x1.addr, align 8
  %p = fmul double %x0, %x1
  store double %p, ptr %y, align 8
  ret void
}

declare void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr, ptr)

; CHECK-LABEL: define void @caller(
; CHECK: call void @f.slope.reverse.DD(ptr %x, ptr %y, ptr %dx, ptr %dy)
define void @caller(ptr %x, ptr %y, ptr %dx, ptr %dy) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr null, ptr %x, ptr %y, ptr %dx, ptr %dy)
  ret void
}

; CHECK-LABEL: define internal void @f.slope.reverse.DD(ptr %x, ptr %y, ptr %x.shadow, ptr %y.shadow)
; The primal effect happens; the shadow address is formed beside it.
; CHECK: store double %p, ptr %y
; CHECK: %x1.addr.shadow = getelementptr inbounds i8, ptr %x.shadow, i64 8
; Seed read from y's shadow, which is then zeroed.
; CHECK: [[SEED:%.*]] = load double, ptr %y.shadow
; CHECK: store double 0.000000e+00, ptr %y.shadow
; x̄[0] += x[1]·seed and x̄[1] += x[0]·seed, through the shadow GEP.
; CHECK-DAG: [[D0:%.*]] = fmul double %x1, [[SEED]]
; CHECK-DAG: [[D1:%.*]] = fmul double %x0, [[SEED]]
; CHECK-DAG: load double, ptr %x1.addr.shadow
; CHECK-DAG: load double, ptr %x.shadow
; CHECK: ret void
