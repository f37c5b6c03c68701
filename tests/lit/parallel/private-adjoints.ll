; The reverse part of an OpenMP region's body adds to shared adjoints
; atomically; a loop nest gets a zeroed buffer of its own for an array's
; adjoints when nothing else in the nest reads or writes them and the nest
; does not synchronize (src/core/parallel/PrivateAdjoints.h). Where another
; array's adjoints may be the same memory, a test of the ranges before the
; nest picks the buffered copy or the original.
; RUN: %opt -load-pass-plugin=%slope_pass -passes='function(slope-private-adjoints)' -S %s | FileCheck %s

; Every iteration of i adds to all n adjoints (the pairs of an n-body sum).
; CHECK-LABEL: define void @allPairs(
; CHECK: %private.adjoints = call ptr @calloc(i64 %{{.*}}, i64 8)
; CHECK-NOT: atomicrmw
; CHECK: load double, ptr
; CHECK: store double
; CHECK: call void @slope.merge.adjoints.double(ptr %shadow, ptr %private.adjoints, i64
; CHECK-NEXT: call void @free(ptr %private.adjoints)
define void @allPairs(ptr %shadow, i64 %n, double %a) #0 {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %p = getelementptr inbounds double, ptr %shadow, i64 %j
  %old = atomicrmw fadd ptr %p, double %a monotonic, align 8
  %j.next = add nuw nsw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %n
  br i1 %j.done, label %outer.latch, label %inner
outer.latch:
  %i.next = add nuw nsw i64 %i, 1
  %i.done = icmp eq i64 %i.next, %n
  br i1 %i.done, label %exit, label %outer
exit:
  ret void
}

; The nest also reads the adjoints it adds to: they stay atomic.
; CHECK-LABEL: define void @readsItsAdjoint(
; CHECK-NOT: calloc
; CHECK: atomicrmw fadd
define void @readsItsAdjoint(ptr %shadow, i64 %n, double %a) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %shadow, i64 %i
  %taken = load double, ptr %p, align 8
  store double 0.0, ptr %p, align 8
  %q = getelementptr inbounds double, ptr %p, i64 1
  %old = atomicrmw fadd ptr %q, double %taken monotonic, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Another array's adjoints, which may be the same memory: a test of the
; ranges selects the buffered copy of the loop.
; CHECK-LABEL: define void @otherArray(
; CHECK: icmp ule ptr
; CHECK: br i1 %{{.*}}, label %{{.*}}.private, label %private.preheader
; CHECK: call ptr @calloc(
; CHECK: call void @slope.merge.adjoints.double(
; CHECK: atomicrmw fadd
define void @otherArray(ptr %shadow, ptr %other, i64 %n, double %a) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %o = getelementptr inbounds double, ptr %other, i64 %i
  %taken = load double, ptr %o, align 8
  store double 0.0, ptr %o, align 8
  %p = getelementptr inbounds double, ptr %shadow, i64 %i
  %old = atomicrmw fadd ptr %p, double %taken monotonic, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A barrier in the nest: other threads must see the additions there.
; CHECK-LABEL: define void @barrierInside(
; CHECK-NOT: calloc
; CHECK: atomicrmw fadd
define void @barrierInside(ptr %shadow, i64 %n, double %a) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %shadow, i64 %i
  %old = atomicrmw fadd ptr %p, double %a monotonic, align 8
  call void @__kmpc_barrier(ptr null, i32 0)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Outside a region's reverse part nothing changes.
; CHECK-LABEL: define void @notInARegion(
; CHECK-NOT: calloc
; CHECK: atomicrmw fadd
define void @notInARegion(ptr %shadow, i64 %n, double %a) #1 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %shadow, i64 %i
  %old = atomicrmw fadd ptr %p, double %a monotonic, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define internal void @slope.merge.adjoints.double(
; CHECK: fcmp une double
; CHECK: atomicrmw fadd ptr %{{.*}}, double %{{.*}} monotonic

declare void @__kmpc_barrier(ptr, i32)

attributes #0 = { "slope-reverse-sweep" "slope-parallel-region" }
attributes #1 = { "slope-reverse-sweep" }
