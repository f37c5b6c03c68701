// Vector reverse mode in device code: the header's lanes compile for the
// GPU, the primal barrier and its mirror run once for all lanes, and each
// lane's adjoints reach its own shadows atomically; llc accepts the result.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: FileCheck %s < %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: FileCheck %s < %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o /dev/null
#include "Inputs/nvvm-functions.h"

__global__ void gradient(const double *x, double *dx0, double *dx1, double *y,
                         double *dy0, double *dy1, double *partial,
                         double *dpartial0, double *dpartial1, int n) {
  slope::grad<body>(slope::dup(x, slope::lanes(dx0, dx1)),
                    slope::dup(y, slope::lanes(dy0, dy1)),
                    slope::dup(partial, slope::lanes(dpartial0, dpartial1)),
                    n);
}

// Three shadows for each of two lanes.
// CHECK-LABEL: define internal {{.*}} @_Z4bodyPKdPdS1_i.slope.reverse.DDDI.w2(ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, i32 {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}})
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK-COUNT-4: atomicrmw fadd ptr
// CHECK: call void @llvm.nvvm.barrier0()
// CHECK-NOT: call void @llvm.nvvm.barrier0()
// CHECK-COUNT-4: atomicrmw fadd ptr
// CHECK: ret
