// Slope in CUDA device code: each thread differentiates a device function.
// Built device-only (no CUDA installation needed) and checked with llc:
//   clang++-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc \
//     -nocudalib -fplugin=build/lib/SlopeClang.so -Iinclude -S -emit-llvm
// With the CUDA toolkit, drop -nocudainc/-nocudalib/--cuda-device-only and
// launch gradients<<<blocks, threads>>>(...) from the host.
#ifndef __device__ // without the CUDA headers (-nocudainc)
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#endif
#include <slope/slope.hpp>

__device__ double energy(double x, double k) {
  return 0.5 * k * x * x + __nvvm_sqrt_rn_d(1 + x * x);
}

__global__ void gradients(const double *x, const double *k, double *dx,
                          int n) {
  int i = __nvvm_read_ptx_sreg_tid_x();
  if (i < n)
    dx[i] = slope::grad<energy>(x[i], slope::constant(k[i]));
}
