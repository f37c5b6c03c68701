// A __shared__ array holding differentiated data gets a __shared__ shadow:
// the block clears it when the derivative starts (every thread, then a
// barrier), adjoints of reads from it add up atomically, and llc accepts
// the result for sm_80, at -O0 and -O2.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: FileCheck %s < %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: FileCheck %s < %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o /dev/null
#include "Inputs/nvvm-functions.h"

__global__ void gradient(const double *x, double *dx, double *y, double *dy,
                         int n) {
  slope::grad<sharedBody>(slope::dup(x, dx), slope::dup(y, dy), n);
}

// CHECK: @[[SHADOW:.*tile.slope.shadow]] = internal addrspace(3) global [64 x double] undef
// CHECK-LABEL: define internal {{.*}} @_Z10sharedBodyPKdPdi.slope.reverse.DDI(
// CHECK: call void @llvm.memset.p3.i64(ptr addrspace(3) {{.*}}@[[SHADOW]], i8 0, i64 512
// CHECK-NEXT: call void @llvm.nvvm.barrier0()
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: atomicrmw fadd ptr {{.*}} monotonic
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK: ret
