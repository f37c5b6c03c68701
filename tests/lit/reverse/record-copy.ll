; Copies of records of mixed fields move back field by field: the
; floating-point fields' adjoints, nothing for integers and pointers. The
; layout comes from the record type the memory is indexed with (and where
; the copy starts inside a record, a cursor followed back modulo the
; record size), or from the source's type of the copied elements
; (!slope.record, left by the clang plugin); a union is ambiguous.
; RUN: %opt -load-pass-plugin=%slope_pass -passes=slope -S %s | FileCheck %s

%struct.Keyed = type { i32, double }

@desc = linkonce_odr constant [4 x i8] c"DII\00"

; A buffer of {int key; double weight} records, shifted down by one record
; (a sort's move), starting at the second field of a record.
define double @shifted(ptr %x, i64 %n, i64 %unused) {
entry:
  %bytes = shl i64 %n, 4
  %buf = call ptr @malloc(i64 %bytes)
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %xi.at = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %xi.at, align 8
  %key.at = getelementptr inbounds %struct.Keyed, ptr %buf, i64 %i, i32 0
  %k = trunc i64 %i to i32
  store i32 %k, ptr %key.at, align 8
  %w.at = getelementptr inbounds %struct.Keyed, ptr %buf, i64 %i, i32 1
  store double %xi, ptr %w.at, align 8
  %i.next = add i64 %i, 1
  %filled = icmp eq i64 %i.next, %n
  br i1 %filled, label %move, label %fill

move:
  %to = getelementptr inbounds i8, ptr %buf, i64 8
  %from = getelementptr inbounds i8, ptr %buf, i64 24
  %moved = sub i64 %bytes, 24
  call void @llvm.memmove.p0.p0.i64(ptr %to, ptr %from, i64 %moved, i1 false)
  %w0 = load double, ptr %to, align 8
  %r = fmul double %w0, %w0
  call void @free(ptr %buf)
  ret double %r
}

; Untyped buffers (parameters of a generic copy) typed by the source:
; {double, int, double} records, then records of pointers only.
define double @marked(ptr %x, i64 %n, i64 %m) {
entry:
  %bytes = mul i64 %n, 24
  %copy = call ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %copy, ptr %x, i64 %bytes, i1 false), !slope.record !0
  %pointers = call ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %pointers, ptr %copy, i64 %bytes, i1 false), !slope.record !3
  %v = load double, ptr %copy, align 8
  %r = fmul double %v, %v
  ; Cut to 16 bytes of a 24-byte element (as DSE shortens a copy): the
  ; mark no longer says where elements start; the accesses decide.
  %tail = getelementptr inbounds i8, ptr %copy, i64 8
  %tail.from = getelementptr inbounds i8, ptr %x, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr %tail, ptr %tail.from, i64 16, i1 false), !slope.record !0
  call void @free(ptr %pointers)
  call void @free(ptr %copy)
  ret double %r
}

!0 = !{i64 24, !1, !2}
!1 = !{i64 0, i64 64, i64 16, i64 64}
!2 = !{}
!3 = !{i64 24, !2, !4}
!4 = !{i64 0, i64 8, i64 16}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr, ptr, ptr, ptr, i64, i64, ptr, ptr, ptr)

define void @caller(ptr %x, ptr %dx, i64 %n, i64 %m, ptr %out) {
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @shifted, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %m, ptr %dx, ptr null, ptr null)
  call void @_ZN5slope6detail14reverse_markerIJPvllS2_S2_S2_EEEvPKvPKcS2_DpT_(ptr @marked, ptr @desc, ptr %out, ptr %x, i64 %n, i64 %m, ptr %dx, ptr null, ptr null)
  ret void
}

; The records copied from the parameter: doubles at 0 and 16 of 24 bytes;
; the copy of pointer records has no adjoint to move.
; CHECK-LABEL: define internal { double } @marked.slope.reverse.DII(
; The cut copy (reversed first) is typed by the accesses instead.
; CHECK-NOT: call void @slope.copy.adjoint.s24
; CHECK: call void @slope.copy.adjoint.64(
; CHECK: call void @slope.copy.adjoint.s24.d0.d16(
; CHECK-NOT: call void @slope.copy.adjoint
; CHECK: ret { double }
; CHECK-LABEL: define internal void @slope.copy.adjoint.s24.d0.d16(
; CHECK: load double
; CHECK: fadd double
; The move starts 8 bytes into a record: its doubles are at 0, 16, 32...
; CHECK-LABEL: define internal { double } @shifted.slope.reverse.DII(
; CHECK: call void @slope.move.adjoint.s16.d0(
; CHECK-LABEL: define internal void @slope.move.adjoint.s16.d0(
; CHECK: load double
; CHECK: fadd double
