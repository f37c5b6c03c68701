// GPU execution test (needs a GPU and the CUDA toolkit; run.sh skips
// cleanly otherwise): per-thread gradients of kernel bodies computed by
// Slope on the device, against central differences of the primal kernels
// also run on the device, and forward mode against the reverse gradient.
#include <slope/slope.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int N = 64;

// Neighbours read each other's inputs: adjoints of x meet in global memory.
__device__ void stencil(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double left = x[(i + n - 1) % n], right = x[(i + 1) % n];
  y[i] = sin(x[i]) * left + sqrt(1 + right * right);
}

// Values exchanged through shared memory across a barrier.
__device__ void tile(const double *x, double *y, int n) {
  __shared__ double t[N];
  int i = threadIdx.x;
  t[i] = exp(0.1 * x[i]) * x[i];
  __syncthreads();
  y[i] = t[(i + 1) % n] * t[i];
}

// A loop per thread (its tape on the device) through rsqrt and log2,
// whose NVVM forms Slope has rules for.
__device__ void series(const double *x, double *y, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  double s = x[i], acc = 0;
  for (int k = 0; k < 8; ++k) {
    s = 0.5 * s + rsqrt(1 + s * s);
    acc += log2(1 + s * s) * x[(i + k) % n];
  }
  y[i] = acc;
}

template <void (*Body)(const double *, double *, int)>
__global__ void primal(const double *x, double *y, int n) {
  Body(x, y, n);
}

template <void (*Body)(const double *, double *, int)>
__global__ void gradient(const double *x, double *dx, double *y, double *dy,
                         int n) {
  slope::grad<Body>(slope::dup(x, dx), slope::dup(y, dy), n);
}

template <void (*Body)(const double *, double *, int)>
__global__ void tangent(const double *x, double *tx, double *y, double *ty,
                        int n) {
  slope::derivative<Body>(slope::dup(x, tx), slope::dup(y, ty), n);
}

static int failures = 0;

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e),          \
                  __FILE__, __LINE__);                                         \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/// Σᵢ yᵢ(x) for the primal kernel at x.
template <void (*Body)(const double *, double *, int)>
static double total(const std::vector<double> &x, double *dX, double *dY) {
  cudaMemcpy(dX, x.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  primal<Body><<<1, N>>>(dX, dY, N);
  std::vector<double> y(N);
  cudaMemcpy(y.data(), dY, N * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0;
  for (double v : y)
    s += v;
  return s;
}

template <void (*Body)(const double *, double *, int)>
static int check(const char *name) {
  std::vector<double> x(N), seed(N, 1.0), zero(N, 0.0), grad(N);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.05 * i;
  double *dX, *dY, *dXBar, *dYBar;
  CHECK_CUDA(cudaMalloc(&dX, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dY, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dXBar, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dYBar, N * sizeof(double)));
  cudaMemcpy(dX, x.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dXBar, zero.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dYBar, seed.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  gradient<Body><<<1, N>>>(dX, dXBar, dY, dYBar, N);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaMemcpy(grad.data(), dXBar, N * sizeof(double), cudaMemcpyDeviceToHost);
  // Forward mode along all-ones: Σᵢ ẏᵢ = Σⱼ ∂(Σᵢ yᵢ)/∂xⱼ.
  std::vector<double> ones(N, 1.0), tangents(N);
  cudaMemcpy(dXBar, ones.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dYBar, zero.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  tangent<Body><<<1, N>>>(dX, dXBar, dY, dYBar, N);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaMemcpy(tangents.data(), dYBar, N * sizeof(double),
             cudaMemcpyDeviceToHost);
  double forward = 0, reverse = 0;
  for (int i = 0; i < N; ++i) {
    forward += tangents[i];
    reverse += grad[i];
  }
  if (std::fabs(forward - reverse) > 1e-9 * (1 + std::fabs(reverse))) {
    std::printf("FAIL %s: forward %.12g vs reverse %.12g\n", name, forward,
                reverse);
    ++failures;
  }
  for (int i = 0; i < N; ++i) {
    std::vector<double> plus = x, minus = x;
    double h = 1e-6;
    plus[i] += h;
    minus[i] -= h;
    double fd = (total<Body>(plus, dX, dY) - total<Body>(minus, dX, dY)) /
                (plus[i] - minus[i]);
    if (std::fabs(grad[i] - fd) > 1e-6 * (1 + std::fabs(fd))) {
      std::printf("FAIL %s: d/dx[%d] AD %.12g vs FD %.12g\n", name, i,
                  grad[i], fd);
      ++failures;
    }
  }
  cudaFree(dX);
  cudaFree(dY);
  cudaFree(dXBar);
  cudaFree(dYBar);
  std::printf("%s: checked %d elements\n", name, N);
  return 0;
}

int main() {
  if (check<stencil>("stencil") || check<tile>("shared tile") ||
      check<series>("per-thread loop"))
    return 1;
  std::printf(failures ? "FAILED\n" : "all gradients match\n");
  return failures ? 1 : 0;
}
