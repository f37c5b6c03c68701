// Forward mode over a gradient whose reverse sweep tapes (x[i] is
// overwritten in every sweep): the gradient inside the forward derivative
// starts from an empty tape instead of the thread's kept buffer (memory
// outside the function that could not be shadowed), grows it with realloc
// and frees it; the tape's shadow is reallocated beside it and freed too.
// The gradient called on its own keeps using the kept buffer.
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
// CHECK: [[TAPE:%.*]] = call ptr @realloc(ptr {{.*}}, !slope.tape.growth
// CHECK-NEXT: call ptr @slope.shadow.realloc.release(
// CHECK-NOT: slope.tape.release
// CHECK: call void @free(
// CHECK: call void @slope.shadow.free(
// CHECK-NOT: slope.tape.release
// CHECK: ret void
