; A container passed in that grows: the new storage is stored into the
; caller's object and the old one released. Its shadow comes from the
; primal's own allocator, zeroed (the caller's shadow object takes it
; over), and the caller's old shadow storage goes back the primal's way --
; unsized, since the shadow may be larger. In reverse mode the caller's
; shadow object gets its old pointer back (so it holds the gradient of
; what the function was given) and the new shadow goes back where its
; allocation is reversed; seeds in storage given up stop the program.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"D\00"

; v points to { double *storage }: one element grows to two.
define double @grow(ptr %v) {
  %old = load ptr, ptr %v, align 8
  %new = call ptr @_Znwm(i64 16)
  %e0 = load double, ptr %old, align 8
  store double %e0, ptr %new, align 8
  %sq = fmul double %e0, %e0
  %p1 = getelementptr inbounds double, ptr %new, i64 1
  store double %sq, ptr %p1, align 8
  call void @_ZdlPvm(ptr %old, i64 8)
  store ptr %new, ptr %v, align 8
  %a = load double, ptr %new, align 8
  %b = load double, ptr %p1, align 8
  %r = fmul double %a, %b
  ret double %r
}

declare ptr @_Znwm(i64)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZN5slope6detail14reverse_markerIJPvS2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, ptr)
declare void @_ZN5slope6detail14forward_markerIJPvS2_EEEvPKvPKcS2_S2_DpT_(ptr, ptr, ptr, ptr, ptr, ptr)

define void @caller(ptr %v, ptr %dv, ptr %out, ptr %tan) {
  call void @_ZN5slope6detail14reverse_markerIJPvS2_EEEvPKvPKcS2_DpT_(ptr @grow, ptr @desc, ptr %out, ptr %v, ptr %dv)
  call void @_ZN5slope6detail14forward_markerIJPvS2_EEEvPKvPKcS2_S2_DpT_(ptr @grow, ptr @desc, ptr %out, ptr %tan, ptr %v, ptr %dv)
  ret void
}

; CHECK-LABEL: define internal { double } @grow.slope.reverse.D(
; CHECK: %new.shadow = call {{.*}}ptr @_Znwm(i64 16)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%new.shadow, i8 0, i64 16
; CHECK: call void @slope.check.zero(ptr [[OLDSHADOW:%.*]], i64
; CHECK: call void @_ZdlPvm(ptr %old, i64 8)
; CHECK-NOT: @_ZdlPv(ptr [[OLDSHADOW]])
; CHECK: %shadow.overwritten = load ptr, ptr %v.shadow
; CHECK-NEXT: store ptr %new.shadow, ptr %v.shadow
; The reverse sweep: the caller's shadow pointer back, the new shadow freed.
; CHECK: store ptr %shadow.overwritten, ptr %v.shadow
; CHECK: call void @_ZdlPv(ptr %new.shadow
; CHECK: ret { double }

; CHECK-LABEL: define internal { double, double } @grow.slope.forward.D(
; CHECK: %new.shadow = call {{.*}}ptr @_Znwm(i64 16)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%new.shadow, i8 0, i64 16
; CHECK: call void @_ZdlPvm(ptr %old, i64 8)
; CHECK-NEXT: call void @_ZdlPv(ptr %old.shadow)
; CHECK: store ptr %new.shadow, ptr %v.shadow
; CHECK-NOT: shadow.overwritten
; CHECK: ret { double, double }
