// slope/eigen.hpp: Eigen's blocked matrix products differentiated by their
// rules. Every storage order of the operands (blocks with strides past
// their rows, transposes, a row-major result), an active scalar factor
// (Eigen hands it to the kernel as alpha), an operand with no shadow, an
// operand overwritten after the product, float operands, and a Hessian
// (forward mode over the reverse rule). Both modes, against central
// differences.
#include "../Check.h"

#include <slope/operations.hpp>
#include <slope/slope.hpp>

#include <Eigen/Dense>
#include <slope/eigen.hpp>

#include <cmath>
#include <vector>

namespace {

using Eigen::Dynamic;
using Eigen::Map;
using Eigen::MatrixXd;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

/// n = 9 keeps every product past Eigen's 20 rows + columns + depth, where
/// it calls the blocked kernel.
constexpr int Size = 9;

/// a holds an (n + 3) x n matrix whose top n rows are used (a stride of
/// n + 3), b an n x (n + 2) one.
template <class Real>
Real products(const Real *a, const Real *b, Real s, int n) {
  using Matrix = Eigen::Matrix<Real, Dynamic, Dynamic>;
  using RowMatrix = Eigen::Matrix<Real, Dynamic, Dynamic, Eigen::RowMajor>;
  Map<const Matrix> A(a, n + 3, n), B(b, n, n + 2);
  auto Top = A.topRows(n);
  Matrix C = (s * Top) * B;            // alpha = s
  Matrix D = Top.transpose() * C;      // a row-major left operand
  Matrix E = C * B.transpose();        // a row-major right operand
  RowMatrix R = E.cwiseProduct(E) * B; // a row-major result
  return Real(0.5) * D.squaredNorm() + Real(0.1) * R.sum() +
         Real(0.01) * E.squaredNorm();
}

/// The product's left operand is overwritten before the next product:
/// the reverse sweep must see A as the first product read it.
double overwritten(double *a, const double *b, int n) {
  Map<MatrixXd> A(a, n, n);
  Map<const MatrixXd> B(b, n, n);
  MatrixXd C = A * B;
  A = C.array().sin().matrix();
  MatrixXd D = A * B;
  return 0.5 * D.squaredNorm();
}

/// A perceptron whose inputs are constant: the products' right operands
/// have no shadow.
double perceptron(const double *w, const double *x, int in, int hidden,
                  int batch) {
  Map<const MatrixXd> W1(w, hidden, in), W2(w + hidden * in, 3, hidden);
  Map<const MatrixXd> X(x, in, batch);
  MatrixXd H = (W1 * X).array().tanh().matrix();
  return 0.5 * (W2 * H).squaredNorm();
}

/// Products in a loop whose count is known at run time: each product's
/// record goes on the tape, X is overwritten by the next step's product.
double iterated(const double *a, const double *x0, int n, int steps) {
  Map<const MatrixXd> A(a, n, n);
  MatrixXd X = Map<const MatrixXd>(x0, n, n);
  for (int s = 0; s < steps; ++s)
    X = (A * X).array().tanh().matrix();
  return 0.5 * X.squaredNorm();
}

/// Two results, for reverse mode with a lane per result.
void twoResults(const double *a, const double *b, int n, double *out) {
  Map<const MatrixXd> A(a, n, n), B(b, n, n);
  MatrixXd C = A * B;
  out[0] = 0.5 * C.squaredNorm();
  out[1] = C.array().sin().sum();
}

/// Both operands one matrix (and one shadow): A A and A^T A.
double selfProducts(const double *a, int n) {
  Map<const MatrixXd> A(a, n, n);
  MatrixXd S = A * A, G = A.transpose() * A;
  return 0.5 * S.squaredNorm() + G.trace() +
         0.1 * (S.array() * G.array()).sum();
}

double squaredProduct(const double *a, const double *b, int n) {
  Map<const MatrixXd> A(a, n, n), B(b, n, n);
  return 0.5 * (A * B).squaredNorm();
}

/// Central differences of \p f with respect to each element of \p v; f
/// gets fresh copies of its arrays (it may write them).
template <class F>
std::vector<double> differences(F f, std::vector<double> &v) {
  std::vector<double> result(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    double saved = v[i], h = 1e-6 * std::max(1.0, std::fabs(saved));
    v[i] = saved + h;
    double up = f();
    v[i] = saved - h;
    double down = f();
    v[i] = saved;
    result[i] = (up - down) / (2 * h);
  }
  return result;
}

void expectNear(const std::vector<double> &ad, const std::vector<double> &fd,
                const char *what) {
  ASSERT_EQ(ad.size(), fd.size());
  for (std::size_t i = 0; i < ad.size(); ++i)
    EXPECT_TRUE(check::near(ad[i], fd[i], 1e-6, 1e-8))
        << what << "[" << i << "]";
}

} // namespace

TEST(EigenRules, EveryStorageOrderAndAnActiveScalarFactor) {
  const int n = Size;
  std::vector<double> a = check::wave((n + 3) * n, 0.3),
                      b = check::wave(n * (n + 2), 0.4);
  double s = 0.8;
  std::vector<double> da(a.size(), 0.0), db(b.size(), 0.0);
  double ds = slope::grad<products<double>>(
      slope::dup(a.data(), da.data()), slope::dup(b.data(), db.data()), s, n);
  auto f = [&] { return products(a.data(), b.data(), s, n); };
  expectNear(da, differences(f, a), "a");
  expectNear(db, differences(f, b), "b");
  std::vector<double> sv{s};
  auto fs = [&] { return products(a.data(), b.data(), sv[0], n); };
  EXPECT_TRUE(check::near(ds, differences(fs, sv)[0], 1e-6, 1e-8));

  // Forward mode: along a[i], b[i] and s at once.
  std::vector<double> ta(a.size()), tb(b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    ta[i] = std::sin(0.7 * double(i));
  for (std::size_t i = 0; i < b.size(); ++i)
    tb[i] = std::cos(0.3 * double(i));
  double ts = 0.5;
  double tangent = slope::derivative<products<double>>(
      slope::dup(a.data(), ta.data()), slope::dup(b.data(), tb.data()),
      slope::dual(s, ts), n);
  double expected = ds * ts;
  for (std::size_t i = 0; i < a.size(); ++i)
    expected += da[i] * ta[i];
  for (std::size_t i = 0; i < b.size(); ++i)
    expected += db[i] * tb[i];
  EXPECT_TRUE(check::near(tangent, expected, 1e-9, 1e-12));
}

TEST(EigenRules, OperandOverwrittenAfterTheProduct) {
  const int n = Size + 2;
  std::vector<double> a = check::wave(n * n, 0.3), b = check::wave(n * n, 0.4);
  std::vector<double> da(a.size(), 0.0), db(b.size(), 0.0), work = a;
  slope::grad<overwritten>(slope::dup(work.data(), da.data()),
                           slope::dup(b.data(), db.data()), n);
  auto f = [&] {
    std::vector<double> copy = a;
    return overwritten(copy.data(), b.data(), n);
  };
  expectNear(da, differences(f, a), "a");
  expectNear(db, differences(f, b), "b");
  // The memory after the gradient is what a plain call leaves.
  std::vector<double> plain = a;
  overwritten(plain.data(), b.data(), n);
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(work[i], plain[i]) << i;
}

TEST(EigenRules, ConstantInputsHaveNoShadow) {
  const int in = 12, hidden = 10, batch = 7;
  std::vector<double> w = check::wave(hidden * in + 3 * hidden, 0.2),
                      x = check::wave(in * batch, 1.0);
  std::vector<double> dw(w.size(), 0.0);
  slope::grad<perceptron>(slope::dup(w.data(), dw.data()),
                          slope::constant(x.data()), in, hidden, batch);
  auto f = [&] { return perceptron(w.data(), x.data(), in, hidden, batch); };
  std::vector<double> fd = differences(f, w);
  expectNear(dw, fd, "w");
  for (std::size_t i = 0; i < w.size(); i += 5) {
    std::vector<double> tw(w.size(), 0.0);
    tw[i] = 1;
    double t = slope::derivative<perceptron>(slope::dup(w.data(), tw.data()),
                                             slope::constant(x.data()), in,
                                             hidden, batch);
    EXPECT_TRUE(check::near(t, fd[i], 1e-6, 1e-8)) << "forward w[" << i << "]";
  }
}

TEST(EigenRules, ProductsInALoop) {
  const int n = Size, steps = 4;
  std::vector<double> a = check::wave(n * n, 0.3), x = check::wave(n * n, 0.5);
  std::vector<double> da(a.size(), 0.0), dx(x.size(), 0.0);
  slope::grad<iterated>(slope::dup(a.data(), da.data()),
                        slope::dup(x.data(), dx.data()), n, steps);
  auto f = [&] { return iterated(a.data(), x.data(), n, steps); };
  std::vector<double> fa = differences(f, a), fx = differences(f, x);
  expectNear(da, fa, "a");
  expectNear(dx, fx, "x");
  for (std::size_t i = 0; i < a.size(); i += 11) {
    std::vector<double> ta(a.size(), 0.0), tx(x.size(), 0.0);
    ta[i] = 1;
    double t =
        slope::derivative<iterated>(slope::dup(a.data(), ta.data()),
                                    slope::dup(x.data(), tx.data()), n, steps);
    EXPECT_TRUE(check::near(t, fa[i], 1e-6, 1e-8)) << "forward a[" << i << "]";
  }
}

// The rules keep one record per call, so with lanes the kernel's body is
// differentiated instead; each lane equals its own one-lane gradient.
TEST(EigenRules, ReverseLanesThroughProducts) {
  const int n = Size;
  std::vector<double> a = check::wave(n * n, 0.3), b = check::wave(n * n, 0.4);
  std::vector<double> da0(a.size(), 0.0), da1(a.size(), 0.0),
      db0(b.size(), 0.0), db1(b.size(), 0.0);
  double out[2], seed0[2] = {1, 0}, seed1[2] = {0, 1};
  slope::grad<twoResults>(
      slope::dup(a.data(), slope::lanes(da0.data(), da1.data())),
      slope::dup(b.data(), slope::lanes(db0.data(), db1.data())), n,
      slope::dup(out, slope::lanes(seed0, seed1)));
  for (int lane = 0; lane < 2; ++lane) {
    std::vector<double> da(a.size(), 0.0), db(b.size(), 0.0);
    double o[2], seed[2] = {lane == 0 ? 1.0 : 0.0, lane == 1 ? 1.0 : 0.0};
    slope::grad<twoResults>(slope::dup(a.data(), da.data()),
                            slope::dup(b.data(), db.data()), n,
                            slope::dup(o, seed));
    const std::vector<double> &la = lane ? da1 : da0, &lb = lane ? db1 : db0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_TRUE(check::near(la[i], da[i], 1e-12, 1e-14))
          << "lane " << lane << " a[" << i << "]";
      EXPECT_TRUE(check::near(lb[i], db[i], 1e-12, 1e-14))
          << "lane " << lane << " b[" << i << "]";
    }
  }
}

TEST(EigenRules, OneMatrixAsBothOperands) {
  const int n = Size + 1;
  std::vector<double> a = check::wave(n * n, 0.3), da(a.size(), 0.0);
  slope::grad<selfProducts>(slope::dup(a.data(), da.data()), n);
  auto f = [&] { return selfProducts(a.data(), n); };
  expectNear(da, differences(f, a), "a");
}

TEST(EigenRules, FloatOperandsMatchTheDoubleGradient) {
  const int n = Size;
  std::vector<double> a = check::wave((n + 3) * n, 0.3),
                      b = check::wave(n * (n + 2), 0.4);
  std::vector<double> da(a.size(), 0.0), db(b.size(), 0.0);
  double ds = slope::grad<products<double>>(
      slope::dup(a.data(), da.data()), slope::dup(b.data(), db.data()), 0.8, n);
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
  std::vector<float> daf(a.size(), 0.0f), dbf(b.size(), 0.0f);
  float dsf =
      slope::grad<products<float>>(slope::dup(af.data(), daf.data()),
                                   slope::dup(bf.data(), dbf.data()), 0.8f, n);
  EXPECT_TRUE(check::near(dsf, ds, 1e-4, 1e-5));
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(check::near(daf[i], da[i], 1e-4, 1e-5)) << "a[" << i << "]";
  for (std::size_t i = 0; i < b.size(); ++i)
    EXPECT_TRUE(check::near(dbf[i], db[i], 1e-4, 1e-5)) << "b[" << i << "]";
}

TEST(EigenRules, HessianThroughTheReverseRule) {
  const int n = Size;
  std::vector<double> a = check::wave(n * n, 0.3), b = check::wave(n * n, 0.4);
  std::vector<double> H = slope::hessian<squaredProduct>(
      slope::wrt(static_cast<const double *>(a.data()), n * n),
      slope::constant(static_cast<const double *>(b.data())), n);
  ASSERT_EQ(H.size(), std::size_t(n * n * n * n));
  // H = (B B^T) kron I on vec(A): a row of it is the gradient's change.
  auto gradientAt = [&](std::vector<double> at) {
    std::vector<double> g(n * n, 0.0);
    slope::grad<squaredProduct>(slope::dup(at.data(), g.data()),
                                slope::constant(b.data()), n);
    return g;
  };
  for (int j = 0; j < n * n; j += 7) {
    const double h = 1e-6;
    std::vector<double> up = a, down = a;
    up[j] += h;
    down[j] -= h;
    std::vector<double> gu = gradientAt(up), gd = gradientAt(down);
    for (int i = 0; i < n * n; ++i)
      EXPECT_TRUE(check::near(H[std::size_t(i) * n * n + j],
                              (gu[i] - gd[i]) / (2 * h), 1e-6, 1e-8))
          << i << ", " << j;
  }
}
