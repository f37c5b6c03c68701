// NVVM intrinsics and libdevice functions have rules in both modes, at -O0
// (the intrinsics as written) and -O2 (InstCombine turns some into generic
// intrinsics): the derivatives use intrinsics of the primal's variant
// (sin.approx.f -> cos.approx.f, the ftz forms stay ftz), call libdevice
// instead of host libm, and llc accepts the result.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t0.ll
// RUN: FileCheck %s < %t0.ll
// RUN: FileCheck %s --check-prefix=LEGAL < %t0.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t0.ll -o /dev/null
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Wno-unknown-cuda-version -O2 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o %t2.ll
// RUN: FileCheck %s < %t2.ll
// RUN: FileCheck %s --check-prefix=LEGAL < %t2.ll
// RUN: %llc -march=nvptx64 -mcpu=sm_80 %t2.ll -o /dev/null
#include "Inputs/nvvm-functions.h"

__global__ void kernel(double *out, const double *in, float *fo,
                       const float *fi) {
  auto [dx, dy] = slope::grad<doubles>(in[0], in[1]);
  out[0] = dx;
  out[1] = dy;
  out[2] = slope::derivative<doubles>(slope::dual(in[0], 1.0), in[1]);
  fo[0] = slope::grad<floats>(fi[0]);
  fo[1] = slope::derivative<floats>(slope::dual(fi[0], 1.0f));
}

// CHECK-DAG: define internal {{.*}} @_Z7doublesdd.slope.reverse.AA.noresult(
// CHECK-DAG: define internal {{.*}} @_Z7doublesdd.slope.forward.AC(
// CHECK-DAG: define internal {{.*}} @_Z6floatsf.slope.reverse.A.noresult(
// CHECK-DAG: define internal {{.*}} @_Z6floatsf.slope.forward.A(
// The derivative of sin.approx.f is cos.approx.f; of cos.approx.ftz.f,
// sin.approx.ftz.f; of __nv_sin, __nv_cos; of __nv_pow, __nv_pow and
// __nv_log. No host libm, no generic transcendental intrinsics.
// CHECK-DAG: call float @llvm.nvvm.cos.approx.f(
// CHECK-DAG: call float @llvm.nvvm.sin.approx.ftz.f(
// CHECK-DAG: call double @__nv_cos(
// CHECK-DAG: call double @__nv_log(
// LEGAL-NOT: call {{.*}} @{{(sin|cos|exp|log|pow)f?}}(
// LEGAL-NOT: call {{.*}} @llvm.{{(sin|cos|exp|log|pow)}}.
