; C library functions that return results through pointers are rewritten
; in the copy Slope differentiates into operations with the same bits:
; frexp's mantissa is ldexp(x, -e) (the call stays, inactive, for e);
; modf's whole part is trunc(x) and its fraction copysign(x - trunc(x), x);
; posix_memalign is an aligned_alloc whose shadow Slope makes.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"A\00"

define double @f(double %x) {
  %e = alloca i32, align 4
  %w = alloca double, align 8
  %p = alloca ptr, align 8
  %m = call double @frexp(double %x, ptr %e)
  %frac = call double @modf(double %x, ptr %w)
  %whole = load double, ptr %w, align 8
  %r = call i32 @posix_memalign(ptr %p, i64 64, i64 8)
  %block = load ptr, ptr %p, align 8
  store double %m, ptr %block, align 8
  %back = load double, ptr %block, align 8
  call void @free(ptr %block)
  %a = fmul double %back, %frac
  %b = fmul double %a, %whole
  ret double %b
}

declare double @frexp(double, ptr)
declare double @modf(double, ptr)
declare i32 @posix_memalign(ptr, i64, i64)
declare void @free(ptr)
declare void @_ZN5slope6detail14reverse_markerIPFddEJdPdEEEvT_PKcPvDpT0_(ptr, ptr, ptr, double, ptr)

define void @caller(double %x, ptr %dx, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIPFddEJdPdEEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr %out, double %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.A(
; CHECK: call double @frexp(double %x, ptr {{.*}}), !slope.inactive
; CHECK: [[E:%.*]] = load i32
; CHECK: [[NEG:%.*]] = sub i32 0, [[E]]
; CHECK: call double @llvm.ldexp.f64.i32(double %x, i32 [[NEG]])
; CHECK: call double @llvm.trunc.f64(double %x)
; CHECK: call double @llvm.copysign.f64(
; CHECK: call ptr @aligned_alloc(i64 64, i64 64)
; CHECK-NOT: posix_memalign
; CHECK: ret { double, double }
