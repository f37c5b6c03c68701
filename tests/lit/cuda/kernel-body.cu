// Per-thread gradient of a kernel body over dup'd global arrays. Thread
// indices are inactive; adjoints of reads from memory other threads may
// read too (anything not on the thread's own stack) accumulate with
// `atomicrmw fadd`; __syncthreads() is replayed at the mirrored point of
// the reverse sweep; llc accepts the result for sm_80.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: FileCheck %s < %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: FileCheck %s < %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o /dev/null
#include "Inputs/nvvm-functions.h"

__global__ void gradient(const double *x, double *dx, double *y, double *dy,
                         double *partial, double *dpartial, int n) {
  slope::grad<body>(slope::dup(x, dx), slope::dup(y, dy),
                    slope::dup(partial, dpartial), n);
}

// CHECK-LABEL: define internal {{.*}} @_Z4bodyPKdPdS1_i.slope.reverse.DDDI(
// The primal barrier, then its mirror in the reverse sweep.
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: atomicrmw fadd ptr {{.*}} monotonic
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: atomicrmw fadd ptr {{.*}} monotonic
// CHECK: ret
