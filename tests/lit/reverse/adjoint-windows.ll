; The increments a reverse sweep makes to neighbouring elements of one array
; (`a[i-1] += v; a[i] += 2v; a[i+1] += v`, a stencil's adjoint) are kept in
; registers across iterations (AdjointWindows.cpp): each element is loaded
; where the loop first adds to it and stored where it adds last, so no
; store feeds the next iteration's load. Another access that may touch the
; elements makes a test of the ranges select the windowed copy; one whose
; range is not known, a call, a gap between the offsets or a load of an
; element before the previous increment of it stored leave the loop alone,
; and so does another access whose range certainly overlaps the window's.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope-adjoint-windows -S %s \
; RUN:   | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope-adjoint-windows \
; RUN:   -disable-output -pass-remarks-analysis=slope %s 2>&1 \
; RUN:   | FileCheck --check-prefix=REMARK %s

; REMARK: remark: {{.*}}keeps the adjoints of 3 neighbouring elements in registers across iterations{{$}}
; REMARK: remark: {{.*}}keeps the adjoints of 3 neighbouring elements in registers across iterations (when a test before the loop finds no overlap)
; REMARK: remark: {{.*}}keeps the adjoints of 2 neighbouring elements in registers across iterations{{$}}
; REMARK-NOT: remark

; for i in [1, n): a[i-1] += x[i]; a[i] += 2 x[i]; a[i+1] += x[i]
; CHECK-LABEL: define void @stencil(
; CHECK:       window.preheader:
; CHECK-DAG:     [[FIRST0:%.*]] = load double, ptr %{{.*}}, align 8
; CHECK-DAG:     [[FIRST1:%.*]] = load double, ptr %{{.*}}, align 8
; CHECK:       loop:
; CHECK-DAG:     [[SLOT0:%.*]] = phi double [ [[FIRST0]], %window.preheader ], [ [[NEXT0:%.*]], %loop ]
; CHECK-DAG:     [[SLOT1:%.*]] = phi double [ [[FIRST1]], %window.preheader ], [ [[NEXT1:%.*]], %loop ]
; CHECK:         %v = load double, ptr %xi
; CHECK:         %low.sum = fadd double [[SLOT0]], %v
; CHECK-NEXT:    store double %low.sum, ptr %low
; CHECK:         %mid.sum = fadd double [[SLOT1]], %twice
; CHECK-NOT:     store
; CHECK:         %high.old = load double, ptr %high
; CHECK-NEXT:    %high.sum = fadd double %high.old, %v
; CHECK-NOT:     store
; CHECK:         br i1 %more, label %loop, label %loop.window.flush
; CHECK:       loop.window.flush:
; CHECK-DAG:     store double %mid.sum.lcssa, ptr %mid.lcssa
; CHECK-DAG:     store double %high.sum.lcssa, ptr %high.lcssa
; CHECK:         br label %exit
define void @stencil(ptr noalias %a, ptr noalias %x, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xi
  %twice = fmul double %v, 2.0
  %i.low = add nsw i64 %i, -1
  %low = getelementptr inbounds double, ptr %a, i64 %i.low
  %low.old = load double, ptr %low
  %low.sum = fadd double %low.old, %v
  store double %low.sum, ptr %low
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, %twice
  store double %mid.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, %v
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; The same where the seed y may overlap a: it is read and cleared in the
; loop, so the windowed copy runs only when a test finds the ranges apart.
; CHECK-LABEL: define void @overlapping(
; CHECK:         icmp ule ptr
; CHECK:         icmp ule ptr
; CHECK-NOT:     icmp
; CHECK:         br i1 %{{.*}}, label %window.preheader.window, label %window.preheader
; CHECK:       loop.window:
; CHECK-COUNT-2: phi double
; CHECK:         store double 0.000000e+00, ptr %yi.window
; CHECK-COUNT-1: store double
; CHECK-NOT:     store double
; CHECK:       loop.window.window.flush:
; CHECK-COUNT-2: store double
; CHECK:       loop:
; CHECK-NOT:     phi double
; CHECK:         store double 0.000000e+00, ptr %yi
; CHECK-COUNT-3: store double
; CHECK:       exit:
define void @overlapping(ptr %a, ptr %y, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %yi = getelementptr inbounds double, ptr %y, i64 %i
  %v = load double, ptr %yi
  store double 0.0, ptr %yi
  %i.low = add nsw i64 %i, -1
  %low = getelementptr inbounds double, ptr %a, i64 %i.low
  %low.old = load double, ptr %low
  %low.sum = fadd double %low.old, %v
  store double %low.sum, ptr %low
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, %v
  store double %mid.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, %v
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; A loop that runs backwards (the reverse of a forward loop): the element
; entering the window is the lowest. a[i] += v; a[i-1] += v for i = n-1 ... 1.
; CHECK-LABEL: define void @backwards(
; CHECK:       loop:
; CHECK:         [[SLOT:%.*]] = phi double
; CHECK:         %mid.sum = fadd double [[SLOT]], %v
; CHECK-NEXT:    store double %mid.sum, ptr %mid
; CHECK:         %low.old = load double, ptr %low
; CHECK-NOT:     store
; CHECK:       loop.window.flush:
; CHECK:         store double %low.sum.lcssa
define void @backwards(ptr noalias %a, ptr noalias %x, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xi
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, %v
  store double %mid.sum, ptr %mid
  %i.low = add nsw i64 %i, -1
  %low = getelementptr inbounds double, ptr %a, i64 %i.low
  %low.old = load double, ptr %low
  %low.sum = fadd double %low.old, %v
  store double %low.sum, ptr %low
  %i.next = add nsw i64 %i, -1
  %more = icmp sgt i64 %i.next, 1
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; An element written through an index array: its range is unknown.
; CHECK-LABEL: define void @scattered(
; CHECK-NOT:     window
; CHECK:       ret void
define void @scattered(ptr noalias %a, ptr noalias %idx, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %ki = getelementptr inbounds i64, ptr %idx, i64 %i
  %k = load i64, ptr %ki
  %ak = getelementptr inbounds double, ptr %a, i64 %k
  store double 0.0, ptr %ak
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, 1.0
  store double %mid.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, 1.0
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; The window would hold a[i+1] and a[i+2], and the loop also reads a[i+1]
; as a value, over 63 iterations: the ranges overlap for certain, so no
; test and no copy. (With a trip count known only at run time, a single
; iteration might keep them apart: that gets the test.)
; CHECK-LABEL: define void @readsAnElementInFlight(
; CHECK-NOT:     window
; CHECK:       ret void
define void @readsAnElementInFlight(ptr noalias %a, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %i.1 = add nsw i64 %i, 1
  %next = getelementptr inbounds double, ptr %a, i64 %i.1
  %v = load double, ptr %next
  %next.old = load double, ptr %next
  %next.sum = fadd double %next.old, %v
  store double %next.sum, ptr %next
  %i.2 = add nsw i64 %i, 2
  %after = getelementptr inbounds double, ptr %a, i64 %i.2
  %after.old = load double, ptr %after
  %after.sum = fadd double %after.old, %v
  store double %after.sum, ptr %after
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 64
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare void @opaque()

; A call may read or write the elements.
; CHECK-LABEL: define void @calls(
; CHECK-NOT:     window
; CHECK:       ret void
define void @calls(ptr noalias %a, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  call void @opaque()
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, 1.0
  store double %mid.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, 1.0
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; a[i-1] and a[i+1] only: a[i] would be carried but never touched.
; CHECK-LABEL: define void @gap(
; CHECK-NOT:     window
; CHECK:       ret void
define void @gap(ptr noalias %a, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %i.low = add nsw i64 %i, -1
  %low = getelementptr inbounds double, ptr %a, i64 %i.low
  %low.old = load double, ptr %low
  %low.sum = fadd double %low.old, 1.0
  store double %low.sum, ptr %low
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, 1.0
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; Two increments of a[i] whose second loads before the first stores: the
; second overwrites the first, which a chain in registers would not.
; CHECK-LABEL: define void @interleaved(
; CHECK-NOT:     window
; CHECK:       ret void
define void @interleaved(ptr noalias %a, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %first.old = load double, ptr %mid
  %second.old = load double, ptr %mid
  %first.sum = fadd double %first.old, 1.0
  store double %first.sum, ptr %mid
  %second.sum = fadd double %second.old, 2.0
  store double %second.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, 1.0
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; Only the reverse sweeps Slope generates are looked at.
; CHECK-LABEL: define void @unmarked(
; CHECK-NOT:     window
; CHECK:       ret void
define void @unmarked(ptr noalias %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %mid = getelementptr inbounds double, ptr %a, i64 %i
  %mid.old = load double, ptr %mid
  %mid.sum = fadd double %mid.old, 1.0
  store double %mid.sum, ptr %mid
  %i.high = add nsw i64 %i, 1
  %high = getelementptr inbounds double, ptr %a, i64 %i.high
  %high.old = load double, ptr %high
  %high.sum = fadd double %high.old, 1.0
  store double %high.sum, ptr %high
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

attributes #0 = { "slope-reverse-sweep" }
