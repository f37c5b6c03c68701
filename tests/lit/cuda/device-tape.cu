// A loop in device code tapes per thread; device code has malloc and free
// but no realloc (ptxas rejects the final link of a kernel calling it), so
// the tape grows by malloc, copy and free there.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#include <slope/slope.hpp>

extern "C" __device__ double __nv_sin(double);

__device__ double series(const double *x, int n) {
  double s = 0, acc = 0;
  for (int k = 0; k < n; ++k) {
    s = __nv_sin(s + x[k]);
    acc += s * s;
  }
  return acc;
}

__global__ void kernel(const double *x, double *dx, int n) {
  slope::grad<series>(slope::dup(x, dx), n);
}

// CHECK-NOT: @realloc
// CHECK: define internal {{.*}} @slope.tape.grow(
// CHECK: call {{.*}}ptr @malloc(
// CHECK: call void @llvm.memcpy
// CHECK: call void @free(
