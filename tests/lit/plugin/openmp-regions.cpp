// A `#pragma omp parallel for` with a sum reduction, in reverse and forward
// mode (src/core/parallel/OpenMP.h). The reverse sweep of the region is a
// region too: the augmented team leaves one record per thread (a barrier
// waits until thread 0 has made room for them), the reverse team asks for
// as many threads and stops when it gets another number. Adjoints of the
// shared x add up atomically; the reduction's combining step is a critical
// section whose reverses take turns, last section first. Forward mode forks
// the body's tangent function.
// RUN: %clangxx -std=c++17 -O2 -fopenmp -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clangxx -std=c++17 -O0 -fopenmp -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
#include <slope/slope.hpp>

double blurSum(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 1; i < n - 1; ++i) {
    y[i] = x[i - 1] + x[i] * x[i + 1];
    s += y[i];
  }
  return s;
}

void gradient(const double *x, double *dx, double *y, double *dy, int n) {
  slope::grad<blurSum>(slope::dup(x, dx), slope::dup(y, dy), n);
}

double tangent(const double *x, const double *tx, double *y, double *ty,
               int n) {
  return slope::derivative<blurSum>(slope::dup(x, tx), slope::dup(y, ty), n);
}

// The combining step draws a ticket inside the lock.
// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}(
// CHECK: [[TICKET:%[0-9]+]] = {{.*}}call i64 @slope.omp.enter(ptr {{.*}}, ptr nonnull @.gomp_critical_user_.reduction.var, ptr nonnull @.gomp_critical_user_.reduction.var.slope.turn)
// CHECK: call void @slope.omp.leave({{.*}}, i64 [[TICKET]])

// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.reverse_part.{{[A-Z]+\.[a-z_]+}}(
// CHECK: atomicrmw fadd ptr
// CHECK: call void @slope.omp.wait_turn(ptr nonnull @.gomp_critical_user_.reduction.var.slope.turn, i64 [[T:%[0-9]+]])
// CHECK: call void @slope.omp.pass_turn(ptr nonnull @.gomp_critical_user_.reduction.var.slope.turn, i64 [[T]])

// CHECK-LABEL: define internal i64 @slope.omp.enter(
// CHECK: call void @__kmpc_critical(

// CHECK-LABEL: define internal void @slope.omp.wait_turn(
// CHECK: load atomic i64, ptr %0 acquire
// CHECK-LABEL: define internal void @slope.omp.pass_turn(
// CHECK: store atomic i64 %1, ptr %0 release

// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}.thread(
// CHECK: call i32 @omp_get_thread_num()
// CHECK: call i32 @omp_get_num_threads()
// CHECK: call {{.*}}@malloc(
// CHECK: call void @__kmpc_barrier(
// CHECK: call void @{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}(

// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.reverse_part.{{[A-Z]+\.[a-z_]+}}.thread(
// CHECK: [[SIZE:%[0-9]+]] = {{.*}}call i32 @omp_get_num_threads()
// CHECK: icmp eq i32 [[SIZE]],
// CHECK: call void @slope.escape.report(

// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}.team(
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call({{.*}}@{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}.thread,

// CHECK-LABEL: define internal void @{{.*}}omp_outlined.slope.reverse_part.{{[A-Z]+\.[a-z_]+}}.team(
// CHECK: call void @__kmpc_push_num_threads(
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call({{.*}}@{{.*}}omp_outlined.slope.reverse_part.{{[A-Z]+\.[a-z_]+}}.thread,
// CHECK: call void @free(

// CHECK-LABEL: define internal { double, double } @{{.*}}blurSum{{.*}}.slope.forward.
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call({{.*}}@{{.*}}omp_outlined.slope.forward.

// At -O0 the same parts appear.
// O0-DAG: define internal void @{{.*}}omp_outlined.slope.augmented.{{[A-Z]+\.[a-z_]+}}.team(
// O0-DAG: define internal void @{{.*}}omp_outlined.slope.reverse_part.{{[A-Z]+\.[a-z_]+}}.team(
// O0-DAG: call void (ptr, i32, ptr, ...) @__kmpc_fork_call({{.*}}omp_outlined.slope.forward.
