// Typed aliasing of bulk copies: std::copy of doubles assigns doubles, so
// by C++'s type rules (clang's alias tags) it cannot change the int indices
// a CSR product reads: they are loaded again, not taped. A memcpy the user
// writes may copy bytes into objects of any type, and a std::copy of ints
// into the index array does change it: there the index is loaded again
// only after the pre-image of that copy is put back.
// RUN: %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -g -fno-strict-aliasing -fplugin=%slope_plugin -Rpass-analysis=slope -I%include -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSTRICT
#include <slope/slope.hpp>

#include <algorithm>
#include <cstring>

double product(const double *a, const int *col, int n, int k, double *x,
               double *y) {
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i)
      y[i] = a[i] * x[col[i]];
    std::copy(y, y + n, x);
  }
  return x[0];
}

double productByMemcpy(const double *a, const int *col, int n, int k,
                       double *x, double *y) {
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i)
      y[i] = a[i] * x[col[i]];
    std::memcpy(x, y, n * sizeof(double));
  }
  return x[0];
}

double permuted(const double *a, int *col, const int *next, int n, int k,
                double *x, double *y) {
  for (int s = 0; s < k; ++s) {
    for (int i = 0; i < n; ++i)
      y[i] = a[i] * x[col[i]];
    std::copy(y, y + n, x);
    std::copy(next, next + n, col);
  }
  return x[0];
}

void use(double *a, double *da, int *col, const int *next, int n, int k,
         double *x, double *dx, double *y, double *dy) {
  slope::grad<product>(slope::dup(a, da), col, n, k, slope::dup(x, dx),
                       slope::dup(y, dy));
  slope::grad<productByMemcpy>(slope::dup(a, da), col, n, k,
                               slope::dup(x, dx), slope::dup(y, dy));
  slope::grad<permuted>(slope::dup(a, da), col, next, n, k, slope::dup(x, dx),
                        slope::dup(y, dy));
}

// CHECK-NOT: 'productByMemcpy(double const*, int const*, int, int, double*, double*)' tapes a i32
// CHECK-NOT: 'product(double const*, int const*, int, int, double*, double*)' tapes a i32
// CHECK-DAG: typed-copies.cpp:18:23: remark: in the reverse sweep of 'product(double const*, int const*, int, int, double*, double*)' this value is loaded again (no later write may change that memory)
// CHECK-DAG: typed-copies.cpp:28:23: remark: in the reverse sweep of 'productByMemcpy(double const*, int const*, int, int, double*, double*)' this value is loaded again after the pre-images of the writes that overwrite it are put back
// CHECK-DAG: typed-copies.cpp:38:23: remark: in the reverse sweep of 'permuted(double const*, int*, int const*, int, int, double*, double*)' this value is loaded again after the pre-images of the writes that overwrite it are put back
// NOSTRICT: typed-copies.cpp:18:23: remark: the reverse sweep of 'product(double const*, int const*, int, int, double*, double*)' tapes a i32 loaded from memory that a write through another pointer may change
