; A grad call in a try block is an invoke of the marker: the derivative is
; invoked with the same handler (it throws what the primal throws), and
; the results are stored on the normal path.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"A\00"

declare void @may_throw()

define double @f(double %x) {
  call void @may_throw()
  %y = fmul double %x, %x
  ret double %y
}

declare void @_ZN5slope6detail14reverse_markerIJdPvEEEvPKvPKcS2_DpT_(ptr, ptr, ptr, double, ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define double @caller(
; CHECK: [[R:%.*]] = invoke { double, double } @f.slope.reverse.A.noresult(double %x, double 1.000000e+00)
; CHECK-NEXT: to label %slope.results unwind label %handler
; CHECK: slope.results:
; CHECK: [[D:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT: store double [[D]], ptr %dx
; CHECK-NEXT: br label %done
; CHECK: done:
; CHECK-NEXT: %r = phi double [ 1.000000e+00, %slope.results ], [ 0.000000e+00, %handler ]
define double @caller(double %x, ptr %dx) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @_ZN5slope6detail14reverse_markerIJdPvEEEvPKvPKcS2_DpT_(ptr @f, ptr @desc, ptr null, double %x, ptr %dx)
      to label %done unwind label %handler

handler:
  %lp = landingpad { ptr, i32 } catch ptr null
  br label %done

done:
  %r = phi double [ 1.0, %entry ], [ 0.0, %handler ]
  ret double %r
}
