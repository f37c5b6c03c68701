// clang links only the libdevice functions the source calls; the
// derivative of __nv_sin calls __nv_cos, which Slope links in afterwards
// from the same -mlink-builtin-bitcode file, internalized.
// RUN: %llvm_as %S/Inputs/fake-libdevice.ll -o %t.libdevice.bc
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -Xclang -mlink-builtin-bitcode -Xclang %t.libdevice.bc -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t.ll -o /dev/null
// Without any grad call, libdevice calls are still inlined as clang would.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -DNO_GRAD -Xclang -mlink-builtin-bitcode -Xclang %t.libdevice.bc -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t.plain.ll
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.ll
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#include <slope/slope.hpp>

extern "C" __device__ double __nv_sin(double);

__device__ double wave(double x) { return __nv_sin(x) * x; }

#ifndef NO_GRAD
__global__ void gradient(double *out, const double *in) {
  out[0] = slope::grad<wave>(in[0]);
}
#else
__global__ void plain(double *out, const double *in) { out[0] = wave(in[0]); }
// PLAIN-NOT: call {{.*}}@__nv_
#endif

// libdevice calls reach Slope as calls (the rule of sin is used: the
// derivative multiplies by __nv_cos, whose stand-in body is x·0.25), and
// are inlined afterwards, like clang would have done.
// CHECK-LABEL: define internal {{.*}} @_Z4waved.slope.reverse.A.noresult(
// CHECK: fmul double {{.*}}, 2.500000e-01
// CHECK-NOT: call {{.*}}@__nv_
// CHECK: ret
