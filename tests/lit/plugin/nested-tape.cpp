// Forward mode over a gradient whose reverse sweep tapes (x[i] is
// overwritten in every sweep): the gradient inside the forward derivative
// takes a tape of its own instead of the thread's kept buffer (memory
// outside the function that could not be shadowed), as large as the last
// one it reached on this thread (a thread-local size), grows it with
// realloc and frees it. The tape's shadow is allocated and grown beside
// it without zeroing (every entry is written before it is read) and freed
// too. The gradient called on its own keeps using the kept buffer.
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -fplugin-arg-slope-dump -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#include <slope/slope.hpp>

#include <cmath>

double sweeps(double *x, int n) {
  for (int s = 0; s < 3; ++s)
    for (int i = 1; i < n; ++i)
      x[i] = std::sin(x[i] * x[i - 1]) + 0.5 * x[i];
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += x[i] * x[i];
  return total;
}

void gradient(double *x, double *g, int n) {
  slope::grad<sweeps>(slope::dup(x, g), n);
}

void hvp(double *x, double *v, double *g, double *hv, int n) {
  slope::derivative<gradient>(slope::dup(x, v), slope::dup(g, hv), n);
}

// CHECK-LABEL: define internal { double } @_Z6sweepsPdi.slope.reverse.DI.noresult(
// CHECK: call { ptr, i64 } @slope.tape.take()
// CHECK: call void @slope.tape.release(

// CHECK-LABEL: define internal void @_Z8gradientPdS_i.slope.forward.DDI(
// CHECK-NOT: slope.tape.take
// CHECK: [[HINT:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @{{.*}}.tape.hint)
// CHECK: [[BYTES:%.*]] = load i64, ptr [[HINT]]
// CHECK: call ptr @malloc(i64 [[BYTES]]), !slope.tape.growth
// CHECK-NEXT: call ptr @slope.shadow.alloc.unzeroed(i64 [[BYTES]])
// CHECK: call ptr @realloc(ptr {{.*}}, !slope.tape.growth
// CHECK-NEXT: call ptr @slope.shadow.realloc.release.unzeroed(
// CHECK-NOT: slope.tape.release
// CHECK: store i64 {{.*}}, ptr {{%.*}}
// CHECK: call void @free(
// CHECK: call void @slope.shadow.free(
// CHECK-NOT: slope.tape.release
// CHECK: ret void
