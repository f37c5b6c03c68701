; A load in an inner loop whose memory a store of the outer loop may
; overwrite in a later row (an in-place sweep: x[i] = f(x[0..m)) for each
; row i) is not taped per element: the store's block tapes what each
; execution overwrites, and the reverse of that block puts it back, so the
; inner loop's reverse finds memory as the load found it and loads again.
; The store's footprint (x[0..n), one range per call) is saved as the primal
; sweep leaves it and put back at the end. A store that some rows skip has
; no footprint of memory the program writes: there the load is taped.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -disable-output \
; RUN:   -pass-remarks-analysis=slope %s 2>&1 | FileCheck --check-prefix=REMARK %s

@desc = linkonce_odr constant [4 x i8] c"DII\00"

; n rows of: s = Σ_p x[p]² over the first m elements, then x[i] = 0.1·s in
; place (a Gauss-Seidel-like sweep).
define double @rows(ptr noalias %x, i64 %n, i64 %m) {
entry:
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  br label %inner
inner:
  %p = phi i64 [ 0, %row ], [ %p.next, %inner ]
  %acc = phi double [ 0.0, %row ], [ %acc.next, %inner ]
  %xp = getelementptr inbounds double, ptr %x, i64 %p
  %v = load double, ptr %xp, align 8
  %sq = fmul double %v, %v
  %acc.next = fadd double %acc, %sq
  %p.next = add nuw nsw i64 %p, 1
  %inner.done = icmp eq i64 %p.next, %m
  br i1 %inner.done, label %row.end, label %inner
row.end:
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  %scaled = fmul double %acc.next, 1.000000e-01
  store double %scaled, ptr %xi, align 8
  %i.next = add nuw nsw i64 %i, 1
  %rows.done = icmp eq i64 %i.next, %n
  br i1 %rows.done, label %exit, label %row
exit:
  ret double %scaled
}

; The same, but only rows whose sum exceeds 1 store.
define double @someRows(ptr noalias %x, i64 %n, i64 %m) {
entry:
  br label %row
row:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  br label %inner
inner:
  %p = phi i64 [ 0, %row ], [ %p.next, %inner ]
  %acc = phi double [ 0.0, %row ], [ %acc.next, %inner ]
  %xp = getelementptr inbounds double, ptr %x, i64 %p
  %v = load double, ptr %xp, align 8
  %sq = fmul double %v, %v
  %acc.next = fadd double %acc, %sq
  %p.next = add nuw nsw i64 %p, 1
  %inner.done = icmp eq i64 %p.next, %m
  br i1 %inner.done, label %row.test, label %inner
row.test:
  %big = fcmp ogt double %acc.next, 1.0
  %scaled = fmul double %acc.next, 1.000000e-01
  br i1 %big, label %row.store, label %row.end
row.store:
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  store double %scaled, ptr %xi, align 8
  br label %row.end
row.end:
  %i.next = add nuw nsw i64 %i, 1
  %rows.done = icmp eq i64 %i.next, %n
  br i1 %rows.done, label %exit, label %row
exit:
  ret double %scaled
}

declare void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, i64 %m, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @rows, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %m, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @someRows, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %m, ptr %dx, ptr null, ptr null)
  ret void
}

; (The derivatives come out in the reverse order of the requests.)
; CHECK-LABEL: define internal { double } @someRows.slope.reverse.DII(
; CHECK-NOT: store.pre.image
; CHECK-NOT: footprint.final
; CHECK: ret { double }

; CHECK-LABEL: define internal { double } @rows.slope.reverse.DII(
; The footprint: n doubles from x.
; CHECK: entry:
; CHECK: %[[BYTES:.*]] = add nuw nsw i64 %{{.*}}, 8
; What the store overwrites, loaded just before it and taped.
; CHECK: row.end:
; CHECK: %xi = getelementptr inbounds double, ptr %x, i64 %i
; CHECK: %store.pre.image = load double, ptr %xi
; CHECK-NEXT: store double %scaled, ptr %xi
; CHECK: store double %store.pre.image, ptr
; The primal sweep's final x is kept.
; CHECK: %footprint.final = call ptr @malloc(i64 %[[BYTES]])
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%footprint.final, ptr {{.*}}%x, i64 %[[BYTES]]
; The reverse of the store's block puts the old value back ...
; CHECK: row.end.rev:
; CHECK: %store.pre.image.tape = load double
; CHECK: %xi.redo = getelementptr inbounds double, ptr %x, i64 %[[ROW:.*]]
; CHECK: store double %store.pre.image.tape, ptr %xi.redo
; ... before the inner loop's reverse loads x[p] again.
; CHECK: inner.rev:
; CHECK: %v.pre = load double, ptr %xp.redo
; At the end x holds what the primal sweep left.
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%x, ptr {{.*}}%footprint.final, i64 %[[BYTES]]
; CHECK: ret { double }

; REMARK-DAG: the reverse sweep of 'rows' tapes what a store overwrites, put back where the reverse sweep reverses the store (8 bytes each time this runs)
; REMARK-DAG: in the reverse sweep of 'rows' this value is loaded again after the pre-images of the writes that overwrite it are put back
; REMARK-DAG: the reverse sweep of 'someRows' tapes a double loaded from memory that a later write (here, or in a later iteration) may change
