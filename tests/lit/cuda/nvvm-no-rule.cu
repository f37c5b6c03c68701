// An NVVM intrinsic without a rule on the active path is a compile error
// naming it, in the device compilation; add.rn and mul.rn have rules.
// RUN: not %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_86 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#include <slope/slope.hpp>

__device__ float rounded(float x, float y) {
  return __nvvm_mul_rn_f(x, y) + __nvvm_add_rz_f(x, y);
}

__device__ float odd(float x, float y) {
  return __nvvm_fmin_xorsign_abs_f(x * y, y);
}

__global__ void kernel(float *out, const float *in) {
  out[0] = slope::derivative<rounded>(slope::dual(in[0], 1.0f), in[1]);
  // CHECK: nvvm-no-rule.cu:[[# @LINE + 1]]:{{[0-9]+}}: error: slope: cannot differentiate call to 'llvm.nvvm.fmin.xorsign.abs.f' in 'odd(float, float)': no derivative rule
  out[1] = slope::derivative<odd>(slope::dual(in[0], 1.0f), in[1]);
}
// CHECK: 1 error generated
