// Numeric check of device derivatives on the CPU: the device IR Slope
// generates (at -O0 and -O2) has each NVVM intrinsic and libdevice function
// rewritten to its exact CPU counterpart (Inputs/nvvm-on-cpu.ll), is linked
// with a host driver, and runs under lli against central differences and,
// at the singular points of sqrt/rsqrt/lg2, exact values.
// RUN: %clangxx -O0 -S -emit-llvm %S/Inputs/nvvm-driver.cpp -o %t.driver.ll
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: sed -e '/^target datalayout/d' -e '/^target triple/d' -e 's/@llvm\.nvvm\./@cpu.nvvm./g' -e 's/"target-cpu"="sm_80"//g' -e 's/"target-features"="[^"]*"//g' %t0.ll > %t0.cpu.ll
// RUN: llvm-link %t0.cpu.ll %S/Inputs/nvvm-on-cpu.ll %t.driver.ll -o %t0.bc
// RUN: %lli %t0.bc | FileCheck %s
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: sed -e '/^target datalayout/d' -e '/^target triple/d' -e 's/@llvm\.nvvm\./@cpu.nvvm./g' -e 's/"target-cpu"="sm_80"//g' -e 's/"target-features"="[^"]*"//g' %t2.ll > %t2.cpu.ll
// RUN: llvm-link %t2.cpu.ll %S/Inputs/nvvm-on-cpu.ll %t.driver.ll -o %t2.bc
// RUN: %lli %t2.bc | FileCheck %s
#include "Inputs/nvvm-functions.h"

__device__ void entry(double *out, const double *in, float *fo,
                      const float *fi, double *singularOut,
                      double *bodyOut) {
  // One thread (thread index 0 on the CPU): y = 2·x² + x, seeded with 1.
  double x = in[0], y = 0, partial = 0, xBar = 0, yBar = 1, partialBar = 0;
  slope::grad<body>(slope::dup(&x, &xBar), slope::dup(&y, &yBar),
                    slope::dup(&partial, &partialBar), 1);
  bodyOut[0] = xBar;
  auto [dx, dy] = slope::grad<doubles>(in[0], in[1]);
  out[0] = dx;
  out[1] = dy;
  out[2] = slope::derivative<doubles>(slope::dual(in[0], 1.0), in[1]);
  fo[0] = slope::grad<floats>(fi[0]);
  fo[1] = slope::derivative<floats>(slope::dual(fi[0], 1.0f));
  singularOut[0] = slope::grad<singular>(0.0);
  singularOut[1] = slope::derivative<singularTangent>(slope::dual(0.0, 1.0));
}

// CHECK: ok d/dx reverse
// CHECK: ok d/dy reverse
// CHECK: ok d/dx forward
// CHECK: ok float reverse
// CHECK: ok float forward
// CHECK: ok singular reverse
// CHECK: ok singular forward
// CHECK: ok kernel body reverse
// CHECK-NOT: FAIL
