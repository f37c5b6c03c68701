// Device functions built from NVVM intrinsics (clang's __nvvm builtins) and
// libdevice functions, shared by the CUDA rule tests. No CUDA headers.
#ifndef SLOPE_TESTS_NVVM_FUNCTIONS_H
#define SLOPE_TESTS_NVVM_FUNCTIONS_H

#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#include <slope/slope.hpp>

extern "C" __device__ double __nv_sin(double);
extern "C" __device__ double __nv_pow(double, double);
extern "C" __device__ float __nv_expf(float);

__device__ double doubles(double x, double y) {
  double s = __nvvm_sqrt_rn_d(x) + __nvvm_rsqrt_approx_d(x) +
             __nvvm_rcp_rn_d(y) + __nvvm_div_rz_d(x, y);
  s += __nvvm_fma_rn_d(x, y, s) + __nvvm_fmin_d(x, y) + __nvvm_fmax_d(x, y);
  // (ex2/lg2.approx exist for f32 only in PTX: floats() has them.)
  s += __nvvm_fabs_d(-x) + __nvvm_saturate_d(x * 0.25);
  s += __nvvm_mul_rn_d(x, y) + __nvvm_add_rz_d(x, s);
  return s * __nv_sin(x) + __nv_pow(x, y);
}

__device__ float floats(float x) {
  float s = __nvvm_sqrt_approx_ftz_f(x) + __nvvm_sin_approx_f(x) +
            __nvvm_cos_approx_ftz_f(x) + __nvvm_sqrt_rn_f(x);
  s += __nvvm_ex2_approx_ftz_f(x) + __nvvm_lg2_approx_f(x);
  return s * __nv_expf(x);
}

// At x = 0 the partials of sqrt, rsqrt and lg2 are infinite; their
// results are multiplied by zero, so a zero adjoint reaches them and must
// stay zero: the gradient is exactly 1.
__device__ double singular(double x) {
  return __nvvm_sqrt_rn_d(x) * 0.0 + __nvvm_rsqrt_approx_d(x) * 0.0 +
         double(__nvvm_lg2_approx_f(float(x))) * 0.0 + x;
}

// Forward mode: a zero tangent enters sqrt(0) and rsqrt(0) (through
// z = x·0) and must stay zero: the derivative is exactly 1.
__device__ double singularTangent(double x) {
  double z = x * 0.0;
  return __nvvm_sqrt_rn_d(z) + x * __nvvm_fmin_d(__nvvm_rsqrt_approx_d(z), 1.0);
}

// A kernel body: each thread combines its element with its neighbour's
// through memory shared across a barrier.
__device__ void body(const double *x, double *y, double *partial, int n) {
  int i = __nvvm_read_ptx_sreg_tid_x();
  partial[i] = x[i] * x[(i + 1) % n];
  __syncthreads();
  y[i] = partial[(i + 1) % n] * 2 + x[i];
}

// The same exchange through a __shared__ tile.
__device__ void sharedBody(const double *x, double *y, int n) {
  __shared__ double tile[64];
  int i = __nvvm_read_ptx_sreg_tid_x();
  tile[i] = x[i] * x[i];
  __syncthreads();
  y[i] = tile[(i + 1) % n] + tile[i];
}

#endif
