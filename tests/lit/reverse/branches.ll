; Reverse mode through a diamond with a phi: the merge block records the
; entering edge, and the phi's adjoint goes to the incoming value of the
; edge that was taken.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

@desc = linkonce_odr constant [2 x i8] c"A\00"

; f(x) = x > 0 ? x*x : sin(x)
define double @f(double %x) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %pos, label %neg
pos:
  %sq = fmul double %x, %x
  br label %join
neg:
  %s = call double @sin(double %x)
  br label %join
join:
  %r = phi double [ %sq, %pos ], [ %s, %neg ]
  ret double %r
}

declare double @sin(double)
declare void @_ZN5slope6detail14reverse_markerIPFddEJdPdEEEvT_PKcPvDpT0_(ptr, ptr, ptr, double, ptr)

define void @caller(double %x, ptr %dx) {
  call void @_ZN5slope6detail14reverse_markerIPFddEJdPdEEEvT_PKcPvDpT0_(ptr @f, ptr @desc, ptr null, double %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal { double, double } @f.slope.reverse.A.noresult(double %x, double %seed)
; The primal sweep is the original code, less x*x: the caller does not
; want the value, and the reverse needs only x.
; CHECK: br i1 %c, label %pos, label %neg
; CHECK: pos:
; CHECK-NOT: fmul
; CHECK: neg:
; CHECK: %s = call double @sin(double %x)
; Both reverse branches, speculated by the cleanup into a select on the
; branch condition: sin' = cos on the neg edge, (x²)' = 2x on the pos edge.
; CHECK: [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK: [[NEG:%.*]] = fmul double [[COS]], %seed
; CHECK: [[XS:%.*]] = fmul double %x, %seed
; CHECK: [[POS:%.*]] = fadd double [[XS]], [[XS]]
; CHECK: select i1 %c, double [[POS]], double [[NEG]]
; CHECK: ret { double, double }
