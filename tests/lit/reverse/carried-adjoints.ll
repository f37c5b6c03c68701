; The reverse of a scalar recurrence carries one adjoint from iteration to
; iteration. Each iteration computes what it derives from that adjoint for
; a unit seed -- nothing in it waits for the previous iteration -- and
; scales by the carried adjoint once (SeedFactoring.h): one multiply links
; the iterations instead of the whole chain of the step's reverse. The
; primal sweep is left as the primal computes it, and adjoints that two
; carried values share are not factored.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@x.only = linkonce_odr constant [4 x i8] c"ACI\00"
@both = linkonce_odr constant [4 x i8] c"AAI\00"

; x <- r·x·(1 - x), n >= 1 times.
define double @logistic(double %x0, double %r, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %x = phi double [ %x0, %entry ], [ %x.next, %loop ]
  %rx = fmul double %r, %x
  %rest = fsub double 1.0, %x
  %x.next = fmul double %rx, %rest
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %x.next
}

; p <- p·a·b: linear in p, and in the primal sweep computed as written.
define double @product(double %a, double %b, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %p = phi double [ 1.0, %entry ], [ %p.next, %loop ]
  %pa = fmul double %p, %a
  %p.next = fmul double %pa, %b
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %p.next
}

; (u, v) <- (u·v, u + v): each next adjoint mixes both carried adjoints.
define double @coupled(double %u0, double %v0, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %u = phi double [ %u0, %entry ], [ %u.next, %loop ]
  %v = phi double [ %v0, %entry ], [ %v.next, %loop ]
  %u.next = fmul double %u, %v
  %v.next = fadd double %u, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %sum = fadd double %u.next, %v.next
  ret double %sum
}

declare void @_ZN5slope6detail14reverse_markerIJddiPdS1_DnEEEvPKvPKcPvDpT_(ptr, ptr, ptr, double, double, i32, ptr, ptr, ptr)

define void @caller(double %x, double %r, i32 %n, ptr %out, ptr %dx, ptr %dr) {
  call void @_ZN5slope6detail14reverse_markerIJddiPdS1_DnEEEvPKvPKcPvDpT_(ptr @logistic, ptr @x.only, ptr %out, double %x, double %r, i32 %n, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJddiPdS1_DnEEEvPKvPKcPvDpT_(ptr @product, ptr @both, ptr %out, double %x, double %r, i32 %n, ptr %dx, ptr %dr, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJddiPdS1_DnEEEvPKvPKcPvDpT_(ptr @coupled, ptr @both, ptr %out, double %x, double %r, i32 %n, ptr %dx, ptr %dr, ptr null)
  ret void
}

; (The derivatives come out in the reverse order of the calls.)
; Two adjoints carried, each the other's input: nothing is scaled.
; CHECK-LABEL: define internal { double, double, double } @coupled.slope.reverse.AAI(
; CHECK-NOT: .scaled
; CHECK: ret { double, double, double }

; The primal sweep multiplies as the primal does; the reverse scales a·b
; once per iteration and the seed's share of the adjoints of a and b.
; CHECK-LABEL: define internal { double, double, double } @product.slope.reverse.AAI(
; CHECK: loop:
; CHECK: %pa = fmul double %p, %a
; CHECK-NEXT: %p.next = fmul double %pa, %b
; CHECK: loop.rev:
; CHECK: %[[CARRIED:.*]] = phi double [ %seed, %exit ], [ %[[NEXT:.*]], %loop.rev.previous ]
; CHECK: fmul double %[[CARRIED]], %pa.redo
; CHECK: loop.rev.previous:
; CHECK: %[[AB:.*]] = fmul double %a, %b
; CHECK: %[[NEXT]] = fmul double %[[CARRIED]], %[[AB]]

; d x_next / d x = r·(1 - x) - r·x for a unit seed, then one multiply.
; CHECK-LABEL: define internal { double, double } @logistic.slope.reverse.ACI(
; CHECK: loop.rev:
; CHECK: %[[CARRIED:.*]] = phi double [ %seed, %exit ], [ %[[NEXT:.*]], %loop.rev.previous ]
; CHECK-NOT: %[[CARRIED]]
; CHECK: %[[ONE:.*]] = fmul double %rest.redo, %r
; CHECK-NOT: %[[CARRIED]]
; CHECK: %[[TWO:.*]] = fmul double %x.tape, %r
; CHECK-NOT: %[[CARRIED]]
; CHECK: %[[UNIT:.*]] = fsub double %[[ONE]], %[[TWO]]
; CHECK-NEXT: %[[NEXT]] = fmul double %[[CARRIED]], %[[UNIT]]

; REMARK-NOT: 'coupled' the adjoint this loop carries
; REMARK: in the reverse sweep of 'product' the adjoint this loop carries is computed for a unit seed in each iteration and scaled once
; REMARK: in the reverse sweep of 'logistic' the adjoint this loop carries is computed for a unit seed in each iteration and scaled once
