; A copy between local arrays of structs of doubles (`q[i] = p[j]` on
; `Point p[4]` at -O0): the allocas' types say the bytes are doubles, so
; the copy's adjoint moves as doubles instead of being refused as bytes of
; unknown type.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

%struct.P = type { double, double }

@desc = linkonce_odr constant [3 x i8] c"DI\00"

define double @f(ptr %x, i64 %n) {
  %p = alloca [2 x %struct.P], align 8
  %q = alloca [2 x %struct.P], align 8
  %x0 = load double, ptr %x, align 8
  %x1.addr = getelementptr inbounds double, ptr %x, i64 1
  %x1 = load double, ptr %x1.addr, align 8
  store double %x0, ptr %p, align 8
  %p.y = getelementptr inbounds i8, ptr %p, i64 8
  store double %x1, ptr %p.y, align 8
  %p1 = getelementptr inbounds i8, ptr %p, i64 16
  call void @llvm.memcpy.p0.p0.i64(ptr %p1, ptr %p, i64 16, i1 false)
  %bytes = shl i64 %n, 4
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 %bytes, i1 false)
  %q1.y = getelementptr inbounds i8, ptr %q, i64 24
  %a = load double, ptr %q, align 8
  %b = load double, ptr %q1.y, align 8
  %r = fmul double %a, %b
  ret double %r
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @_ZN5slope6detail14reverse_markerIJPvlS2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvlS2_S2_EEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr %out, ptr %x, i64 %n, ptr %dx, ptr null)
  ret void
}

; CHECK-LABEL: define internal { double } @f.slope.reverse.DI(
; CHECK: %q.shadow = alloca [2 x %struct.P]
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 8 %q, ptr nonnull align 8 %p, i64 %bytes, i1 false)
; The reverse of the copy: q's adjoints move into p's, double by double.
; CHECK: call void @slope.copy.adjoint.64(ptr nonnull %q.shadow, ptr nonnull %p.shadow, i64 %bytes)
; CHECK-LABEL: define internal void @slope.copy.adjoint.64(
; CHECK: load double
; CHECK: fadd double
