// A chain of sparse matrix-vector products in CSR form (indirect indexing):
// y = A^K x, J = ½‖y‖²; gradient with respect to x and A's values.
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace {

double sparseChain(const double *values, const int *columns,
                   const int *rowStart, int n, int products, double *x,
                   double *y) {
  for (int k = 0; k < products; ++k) {
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        s += values[p] * x[columns[p]];
      y[i] = s;
    }
    std::copy(y, y + n, x);
  }
  double j = 0;
  for (int i = 0; i < n; ++i)
    j += x[i] * x[i];
  return 0.5 * j;
}

/// The same with restrict-qualified pointers, as HPC kernels declare them
/// (the body above, inlined): then Slope may load values and columns again
/// in the reverse sweep instead of taping them (without, a store to y could
/// change them).
double sparseChainRestrict(const double *__restrict values,
                           const int *__restrict columns,
                           const int *__restrict rowStart, int n, int products,
                           double *__restrict x, double *__restrict y) {
  return sparseChain(values, columns, rowStart, n, products, x, y);
}

/// Keeps the K intermediate vectors, then applies the transposed products.
void sparseChainByHand(const double *values, const int *columns,
                       const int *rowStart, int n, int products,
                       const double *x0, double *dvalues, double *dx) {
  std::vector<double> xs((products + 1) * n);
  std::copy(x0, x0 + n, xs.begin());
  for (int k = 0; k < products; ++k) {
    const double *in = &xs[k * n];
    double *out = &xs[(k + 1) * n];
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p)
        s += values[p] * in[columns[p]];
      out[i] = s;
    }
  }
  std::vector<double> bar(xs.end() - n, xs.end()), prev(n);
  for (int k = products - 1; k >= 0; --k) {
    const double *in = &xs[k * n];
    std::fill(prev.begin(), prev.end(), 0.0);
    for (int i = 0; i < n; ++i)
      for (int p = rowStart[i]; p < rowStart[i + 1]; ++p) {
        dvalues[p] += bar[i] * in[columns[p]];
        prev[columns[p]] += values[p] * bar[i];
      }
    bar.swap(prev);
  }
  for (int i = 0; i < n; ++i)
    dx[i] += bar[i];
}

template <auto Primal> class SparseChain : public bench::Kernel {
public:
  SparseChain(int N, int PerRow, int Products, std::string Variant,
              bool WithExtents = false)
      : N(N), Products(Products), WithExtents(WithExtents),
        Variant(std::move(Variant)), RowStart(N + 1) {
    // A banded-plus-random pattern, scaled to keep A^K x of order one.
    std::srand(7);
    for (int I = 0; I < N; ++I) {
      RowStart[I] = static_cast<int>(Columns.size());
      for (int P = 0; P < PerRow; ++P) {
        Columns.push_back(P == 0 ? I : std::rand() % N);
        Values.push_back((P == 0 ? 0.6 : 0.4 / PerRow) *
                         (1 + 0.1 * std::cos(I + P)));
      }
    }
    RowStart[N] = static_cast<int>(Columns.size());
    X0 = bench::wave(N, 1.0);
    X.resize(N);
    Y.resize(N);
    DY.resize(N);
    SlopeGrad.resize(Values.size() + N);
    HandGrad.resize(Values.size() + N);
  }
  std::string name() const override {
    return "csr" + Variant + " n=" + std::to_string(N) +
           " K=" + std::to_string(Products);
  }
  void primal() override {
    X = X0;
    Value = Primal(Values.data(), Columns.data(), RowStart.data(), N, Products,
                   X.data(), Y.data());
  }
  void slope() override {
    X = X0;
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    std::fill(DY.begin(), DY.end(), 0.0);
    double *DValues = SlopeGrad.data(), *DX = DValues + Values.size();
    if (WithExtents) // lets Slope check at run time that nothing overlaps
      slope::grad<Primal>(slope::dup(Values.data(), DValues, Values.size()),
                          slope::constant(Columns.data(), Columns.size()),
                          slope::constant(RowStart.data(), RowStart.size()), N,
                          Products, slope::dup(X.data(), DX, N),
                          slope::dup(Y.data(), DY.data(), N));
    else
      slope::grad<Primal>(slope::dup(Values.data(), DValues), Columns.data(),
                          RowStart.data(), N, Products,
                          slope::dup(X.data(), DX),
                          slope::dup(Y.data(), DY.data()));
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    sparseChainByHand(Values.data(), Columns.data(), RowStart.data(), N,
                      Products, X0.data(), HandGrad.data(),
                      HandGrad.data() + Values.size());
  }

private:
  int N, Products;
  bool WithExtents;
  std::string Variant;
  std::vector<int> RowStart, Columns;
  std::vector<double> Values, X0, X, Y, DY;
  double Value = 0;
};

bench::Registration Register("7 sparse", [](bench::KernelList &Out,
                                            bool Quick) {
  int N = Quick ? 200 : 20000, PerRow = Quick ? 5 : 10,
      Products = Quick ? 3 : 10;
  Out.push_back(
      std::make_unique<SparseChain<sparseChain>>(N, PerRow, Products, ""));
  Out.push_back(std::make_unique<SparseChain<sparseChain>>(
      N, PerRow, Products, " extents", /*WithExtents=*/true));
  Out.push_back(std::make_unique<SparseChain<sparseChainRestrict>>(
      N, PerRow, Products, " restrict"));
});

} // namespace
