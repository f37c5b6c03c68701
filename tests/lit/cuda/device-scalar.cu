// The API is callable in CUDA device code (per thread): the plugin runs in
// the device compilation, the derivative is generated for nvptx64, and llc
// accepts the result. No CUDA installation is needed.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: FileCheck %s --implicit-check-not=_markerI < %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: FileCheck %s --implicit-check-not=_markerI < %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o /dev/null
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#include <slope/slope.hpp>

__device__ double f(double x, double y) { return x * x * y + y; }

__global__ void gradients(double *out, const double *in) {
  auto [dx, dy] = slope::grad<f>(in[0], in[1]);
  out[0] = dx;
  out[1] = dy;
  out[2] = slope::derivative<f>(slope::dual(in[0], 1.0), in[1]);
}

// CHECK-DAG: define internal {{.*}} @_Z1fdd.slope.reverse.AA.noresult(
// CHECK-DAG: define internal {{.*}} @_Z1fdd.slope.forward.AC(
