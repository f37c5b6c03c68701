// When the CUDA toolkit is installed, ptxas accepts the PTX of device
// derivatives (NVVM rules, atomics, barriers, shared shadows) at -O0/-O2.
// REQUIRES: ptxas
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o %t0.ptx
// RUN: %ptxas -arch=sm_80 -c %t0.ptx -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o %t2.ptx
// RUN: %ptxas -arch=sm_80 -c %t2.ptx -o /dev/null
#include "Inputs/nvvm-functions.h"

__global__ void kernel(const double *x, double *dx, double *y, double *dy,
                       double *p, double *dp, float *fo, const float *fi,
                       int n) {
  slope::grad<body>(slope::dup(x, dx), slope::dup(y, dy), slope::dup(p, dp),
                    n);
  slope::grad<sharedBody>(slope::dup(x, dx), slope::dup(y, dy), n);
  fo[0] = slope::grad<floats>(fi[0]);
}
