// Numeric kernels of the end-to-end tests, as templates: the double
// instantiation is differentiated, the long double one gives reference
// values for finite differences.
#ifndef SLOPE_TESTS_E2E_KERNELS_H
#define SLOPE_TESTS_E2E_KERNELS_H

#include <cmath>
#include <cstdlib>

namespace kernels {

template <class T> T sumsq(const T *x, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

template <class T> T dot(const T *a, const T *b, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

template <class T> void matvec(const T *A, const T *x, T *y, int n) {
  for (int i = 0; i < n; ++i) {
    T s = 0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

/// Rosenbrock's function in n dimensions.
template <class T> T rosenbrock(const T *x, int n) {
  T s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    T a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

/// Reaction-diffusion on a line (Dirichlet ends): dy_i/dt = k (y_{i-1} -
/// 2 y_i + y_{i+1}) + r y_i (1 - y_i); its Jacobian in y is tridiagonal.
template <class T>
void reactionDiffusion(const T *y, T k, T r, T *dydt, int n) {
  for (int i = 0; i < n; ++i) {
    T left = i > 0 ? y[i - 1] : 0, right = i + 1 < n ? y[i + 1] : 0;
    dydt[i] = k * (left - 2 * y[i] + right) + r * y[i] * (1 - y[i]);
  }
}

/// Σ c_k x^k by Horner's rule; coefficients and x both active.
template <class T> T horner(const T *c, int degree, T x) {
  T p = c[degree];
  for (int k = degree - 1; k >= 0; --k)
    p = p * x + c[k];
  return p;
}

/// Explicit 1-D heat equation, time-stepped in place through a scratch
/// buffer from the heap; returns the final "energy" Σ u².
template <class T> T heat(T *u, int cells, int steps, T k) {
  T *next = static_cast<T *>(std::malloc(sizeof(T) * cells));
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i + 1 < cells; ++i)
      next[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i + 1 < cells; ++i)
      u[i] = next[i];
  }
  std::free(next);
  T e = 0;
  for (int i = 0; i < cells; ++i)
    e += u[i] * u[i];
  return e;
}

template <class T> T logsumexp(const T *z, int n) {
  T m = z[0];
  for (int i = 1; i < n; ++i)
    m = z[i] > m ? z[i] : m;
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += std::exp(z[i] - m);
  return m + std::log(s);
}

/// Softmax cross-entropy of logits z against class `label`.
template <class T> T crossEntropy(const T *z, int n, int label) {
  return logsumexp(z, n) - z[label];
}

/// Pairwise gravitational potential with softening: r is n×3.
template <class T> T nbody(const T *r, const T *mass, int n, T eps) {
  T e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      T dx = r[3 * i] - r[3 * j], dy = r[3 * i + 1] - r[3 * j + 1],
        dz = r[3 * i + 2] - r[3 * j + 2];
      e -= mass[i] * mass[j] / std::sqrt(dx * dx + dy * dy + dz * dz + eps);
    }
  return e;
}

/// The ADBench Gaussian-mixture objective. params holds the K mixture
/// weights α, the K·d means μ, and per component the d log-diagonal entries
/// and then the d(d-1)/2 strictly-lower entries (column by column) of the
/// precision factor Q_k; x holds n points of dimension d. Constant terms
/// are left out.
template <class T>
T gmm(const T *params, const T *x, int n, int d, int K, T gamma, int m) {
  const T *alpha = params, *mu = params + K, *icf = params + K + K * d;
  int icfSize = d * (d + 1) / 2;
  T *centered = static_cast<T *>(std::malloc(sizeof(T) * d));
  T *qx = static_cast<T *>(std::malloc(sizeof(T) * d));
  T *terms = static_cast<T *>(std::malloc(sizeof(T) * K));
  T total = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < K; ++k) {
      const T *q = icf + k * icfSize;
      T sumLogDiag = 0;
      for (int j = 0; j < d; ++j) {
        sumLogDiag += q[j];
        centered[j] = x[i * d + j] - mu[k * d + j];
        qx[j] = std::exp(q[j]) * centered[j];
      }
      int entry = d;
      for (int c = 0; c < d; ++c)
        for (int r = c + 1; r < d; ++r)
          qx[r] += q[entry++] * centered[c];
      T norm = 0;
      for (int j = 0; j < d; ++j)
        norm += qx[j] * qx[j];
      terms[k] = alpha[k] + sumLogDiag - T(0.5) * norm;
    }
    total += logsumexp(terms, K);
  }
  total -= n * logsumexp(alpha, K);
  for (int k = 0; k < K; ++k) { // Wishart prior
    const T *q = icf + k * icfSize;
    T frobenius = 0, sumLogDiag = 0;
    for (int j = 0; j < d; ++j) {
      frobenius += std::exp(2 * q[j]);
      sumLogDiag += q[j];
    }
    for (int j = d; j < icfSize; ++j)
      frobenius += q[j] * q[j];
    total += T(0.5) * gamma * gamma * frobenius - m * sumLogDiag;
  }
  std::free(terms);
  std::free(qx);
  std::free(centered);
  return total;
}

} // namespace kernels

#endif
