; A cycle with two entries (a goto into the middle of a loop) has no header
; whose iterations the reverse sweep could count: it is made reducible
; first (FixIrreducible, one new header that dispatches to either entry),
; and then reversed like any loop -- the reverse sweep terminates and runs
; each block's reverse as often as the primal ran it.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | %lli --entry-function=run - | FileCheck --check-prefix=VALUE %s

@ai = linkonce_odr constant [3 x i8] c"AI\00"

; s = x; if (start) goto b; a: s = sin(s) * x; b: s = s * x; if (--k) goto a;
define double @jump(double %x, i32 %start) {
entry:
  %k0 = add i32 3, 0
  %into = icmp ne i32 %start, 0
  br i1 %into, label %b, label %a
a:
  %sa = phi double [ %x, %entry ], [ %sb.next, %b ]
  %ka = phi i32 [ %k0, %entry ], [ %kb.next, %b ]
  %sin = call double @llvm.sin.f64(double %sa)
  %sa.next = fmul double %sin, %x
  br label %b
b:
  %sb = phi double [ %x, %entry ], [ %sa.next, %a ]
  %kb = phi i32 [ %k0, %entry ], [ %ka, %a ]
  %sb.next = fmul double %sb, %x
  %kb.next = add i32 %kb, -1
  %more = icmp sgt i32 %kb.next, 0
  br i1 %more, label %a, label %exit
exit:
  ret double %sb.next
}

declare double @llvm.sin.f64(double)
declare void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, i32, ptr, ptr)
declare i32 @printf(ptr, ...)
@fmt = private constant [7 x i8] c"%.10f\0A\00"

define i32 @run() {
  %dx = alloca double
  call void @_ZN5slope6detail14reverse_markerIJdiPdDnEEEvPKvPKcPvDpT_(ptr @jump, ptr @ai, ptr null, double 0.7, i32 1, ptr %dx, ptr null)
  %g = load double, ptr %dx
  call i32 (ptr, ...) @printf(ptr @fmt, double %g)
  ret i32 0
}

; CHECK-LABEL: define internal { double, double } @jump.slope.reverse.AI.noresult(
; CHECK: irr.guard
; CHECK: ret { double, double }

; d/dx of the primal with start = 1 (b, a, b, a, b) by central differences
; is 0.92303440.
; VALUE: 0.923034{{[0-9]+}}
