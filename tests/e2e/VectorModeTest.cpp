// Vector reverse mode: slope::grad with slope::dup(x, slope::lanes(...))
// computes one gradient per lane (a Jacobian's rows, or the gradients of
// several seeds) from one primal sweep. Every lane is checked against
// central differences, and against forward mode where a Jacobian column is
// cheaper that way.
#include "Check.h"

#include <slope/slope.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace {

// Rodrigues rotation of (X - C) by r, projected and scaled: two residuals
// with branches, sqrt, sin, cos and divisions.
void project(const double *cam, const double *X, double w, double *res) {
  const double *r = cam, *C = cam + 3;
  double xc[3] = {X[0] - C[0], X[1] - C[1], X[2] - C[2]}, y[3];
  double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sq != 0) {
    double theta = std::sqrt(sq), c = std::cos(theta), s = std::sin(theta);
    double k[3] = {r[0] / theta, r[1] / theta, r[2] / theta};
    double kx[3] = {k[1] * xc[2] - k[2] * xc[1], k[2] * xc[0] - k[0] * xc[2],
                    k[0] * xc[1] - k[1] * xc[0]};
    double kd = (k[0] * xc[0] + k[1] * xc[1] + k[2] * xc[2]) * (1 - c);
    for (int j = 0; j < 3; ++j)
      y[j] = xc[j] * c + kx[j] * s + k[j] * kd;
  } else { // first order: the same derivative at r = 0
    y[0] = xc[0] + r[1] * xc[2] - r[2] * xc[1];
    y[1] = xc[1] + r[2] * xc[0] - r[0] * xc[2];
    y[2] = xc[2] + r[0] * xc[1] - r[1] * xc[0];
  }
  double p0 = y[0] / y[2], p1 = y[1] / y[2];
  double L = 1 + cam[6] * (p0 * p0 + p1 * p1);
  res[0] = w * p0 * L;
  res[1] = w * p1 * L;
}

// A loop that keeps values on the tape, a heap scratch array, and an
// output written in place: out[k] = Σ_i exp(s·x_i / (1 + x_i²))·x_i^k for
// k < m.
void moments(const double *x, double s, double *out, int n, int m) {
  double *scaled = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int i = 0; i < n; ++i)
    scaled[i] = std::exp(s * x[i] / (1 + x[i] * x[i]));
  for (int k = 0; k < m; ++k)
    out[k] = 0;
  for (int i = 0; i < n; ++i) {
    double power = 1;
    for (int k = 0; k < m; ++k) {
      out[k] += scaled[i] * power;
      power *= x[i];
    }
  }
  std::free(scaled);
}

double energy(const double *x, double a, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += std::sin(a * x[i]) * x[i];
  return e;
}

// A custom rule that differs from the body (the slope is 5): each lane
// calls the pullback with its own adjoint.
double amplified(double x) { return x; }
slope::Dual<double> amplifiedForward(double x, double dx) {
  return {x, 5 * dx};
}
double amplifiedPullback(double x, double dy) { return 5 * dy; }

void useAmplified(const double *x, double *y) {
  y[0] = amplified(x[0]) * x[1];
  y[1] = amplified(x[1]);
}

/// project's residuals at the current contents of Cam, X and W[0].
std::array<double, 2> projectAt(const std::vector<double> &Cam,
                                const std::vector<double> &X,
                                const std::vector<double> &W) {
  std::array<double, 2> R;
  project(Cam.data(), X.data(), W[0], R.data());
  return R;
}

// d/dx of a function of several outputs, one input element at a time.
template <class F>
double difference(F f, std::vector<double> &In, int I, int Out) {
  double Saved = In[I], Step = 1e-6 * std::max(1.0, std::fabs(Saved));
  In[I] = Saved + Step;
  double Plus = f()[Out];
  In[I] = Saved - Step;
  double Minus = f()[Out];
  In[I] = Saved;
  return (Plus - Minus) / (2 * Step);
}

void expectProjectionJacobian(std::vector<double> Cam) {
  std::vector<double> X = {0.4, -0.3, 4.5}, Res(2);
  double W = 1.7;
  std::vector<double> DCam0(7, 0.5), DCam1(7, 0.5), DX0(3), DX1(3);
  std::vector<double> Seed0 = {1, 0}, Seed1 = {0, 1};
  std::array<double, 2> DW = slope::grad<project>(
      slope::dup(Cam.data(), slope::lanes(DCam0.data(), DCam1.data())),
      slope::dup(X.data(), slope::lanes(DX0.data(), DX1.data())), W,
      slope::dup(Res.data(), slope::lanes(Seed0.data(), Seed1.data())));
  // Outputs are the primal's, output seeds are consumed.
  std::vector<double> WBox = {W};
  auto Eval = [&] { return projectAt(Cam, X, WBox); };
  EXPECT_EQ(Res[0], Eval()[0]);
  EXPECT_EQ(Res[1], Eval()[1]);
  EXPECT_EQ(Seed0, std::vector<double>(2, 0.0));
  EXPECT_EQ(Seed1, std::vector<double>(2, 0.0));

  for (int Row = 0; Row < 2; ++Row) {
    const std::vector<double> &DCam = Row ? DCam1 : DCam0;
    const std::vector<double> &DX = Row ? DX1 : DX0;
    for (int I = 0; I < 7; ++I) // shadows accumulate onto 0.5
      EXPECT_TRUE(
          check::near(DCam[I] - 0.5, difference(Eval, Cam, I, Row), 1e-6, 1e-8))
          << "row " << Row << " camera " << I;
    for (int I = 0; I < 3; ++I)
      EXPECT_TRUE(check::near(DX[I], difference(Eval, X, I, Row), 1e-6, 1e-8))
          << "row " << Row << " point " << I;
    EXPECT_TRUE(
        check::near(DW[Row], difference(Eval, WBox, 0, Row), 1e-6, 1e-8))
        << "row " << Row << " weight";
  }
  // Forward mode gives the columns: the camera's first column.
  std::vector<double> Tangent(7), Zero(3), DRes(2);
  Tangent[0] = 1;
  slope::derivative<project>(
      slope::dup(Cam.data(), Tangent.data()), slope::dup(X.data(), Zero.data()),
      slope::dual(W, 0.0), slope::dup(Res.data(), DRes.data()));
  EXPECT_TRUE(check::near(DRes[0], DCam0[0] - 0.5, 1e-12, 1e-14));
  EXPECT_TRUE(check::near(DRes[1], DCam1[0] - 0.5, 1e-12, 1e-14));
}

TEST(VectorMode, JacobianRowsOfARotatedProjection) {
  expectProjectionJacobian({0.1, -0.2, 0.3, 0.05, 0.1, -5, 0.01});
}

TEST(VectorMode, JacobianRowsInTheBranchWithoutRotation) {
  expectProjectionJacobian({0, 0, 0, 0.05, 0.1, -5, 0.01});
}

TEST(VectorMode, ThreeSeedsThroughLoopsAndHeapScratch) {
  const int N = 6, M = 4;
  std::vector<double> X = {0.3, -0.8, 1.1, 0.25, -0.4, 0.9}, Out(M);
  double S = 0.7;
  // Arbitrary seeds: lane k's gradient is Jᵀ·seed_k.
  std::vector<std::vector<double>> Seeds = {
      {1, 0, 0, 0}, {0.5, -1, 2, 0.25}, {0, 0, 0, 3}};
  std::vector<std::vector<double>> Shadows(3, std::vector<double>(N));
  std::vector<std::vector<double>> SeedCopies = Seeds;
  std::array<double, 3> DS = slope::grad<moments>(
      slope::dup(X.data(), slope::lanes(Shadows[0].data(), Shadows[1].data(),
                                        Shadows[2].data())),
      S,
      slope::dup(Out.data(),
                 slope::lanes(SeedCopies[0].data(), SeedCopies[1].data(),
                              SeedCopies[2].data())),
      N, M);
  std::vector<double> SBox = {S};
  for (int Lane = 0; Lane < 3; ++Lane) {
    auto Weighted = [&] {
      std::vector<double> O(M);
      moments(X.data(), SBox[0], O.data(), N, M);
      double Sum = 0;
      for (int K = 0; K < M; ++K)
        Sum += Seeds[Lane][K] * O[K];
      return std::array<double, 1>{Sum};
    };
    for (int I = 0; I < N; ++I)
      EXPECT_TRUE(check::near(Shadows[Lane][I], difference(Weighted, X, I, 0),
                              1e-6, 1e-8))
          << "lane " << Lane << " x " << I;
    EXPECT_TRUE(
        check::near(DS[Lane], difference(Weighted, SBox, 0, 0), 1e-6, 1e-8))
        << "lane " << Lane << " s";
    // The same seed alone, in scalar reverse mode.
    std::vector<double> Alone(N), Seed = Seeds[Lane], O(M);
    double DSAlone =
        slope::grad<moments>(slope::dup(X.data(), Alone.data()), S,
                             slope::dup(O.data(), Seed.data()), N, M);
    for (int I = 0; I < N; ++I)
      EXPECT_DOUBLE_EQ(Shadows[Lane][I], Alone[I]);
    EXPECT_DOUBLE_EQ(DS[Lane], DSAlone);
  }
}

TEST(VectorMode, ScalarResultSeedsEveryLaneWithOne) {
  const int N = 5;
  std::vector<double> X = {0.2, -0.7, 1.3, 0.6, -1.1};
  std::vector<double> D0(N), D1(N);
  auto [Value, DA] = slope::value_and_grad<energy>(
      slope::dup(X.data(), slope::lanes(D0.data(), D1.data())), 0.9, N);
  EXPECT_DOUBLE_EQ(Value, energy(X.data(), 0.9, N));
  std::vector<double> ABox = {0.9};
  auto Eval = [&] {
    return std::array<double, 1>{energy(X.data(), ABox[0], N)};
  };
  for (int I = 0; I < N; ++I) {
    double Reference = difference(Eval, X, I, 0);
    EXPECT_TRUE(check::near(D0[I], Reference, 1e-6, 1e-8)) << I;
    EXPECT_TRUE(check::near(D1[I], Reference, 1e-6, 1e-8)) << I;
  }
  double DAReference = difference(Eval, ABox, 0, 0);
  EXPECT_TRUE(check::near(DA[0], DAReference, 1e-6, 1e-8));
  EXPECT_TRUE(check::near(DA[1], DAReference, 1e-6, 1e-8));
  // Forward mode agrees on a: ∂e/∂a.
  double Tangent = slope::derivative<energy>(slope::constant(X.data()),
                                             slope::dual(0.9, 1.0), N);
  EXPECT_TRUE(check::near(DA[0], Tangent, 1e-12, 1e-14));
}

TEST(VectorMode, ForwardLanesGiveJacobianColumns) {
  std::vector<double> Cam = {0.1, -0.2, 0.3, 0.05, 0.1, -5, 0.01};
  std::vector<double> X = {0.4, -0.3, 4.5}, Res(2);
  const double W = 1.7;
  // Columns: the camera's first rotation entry, the point's x, both.
  std::vector<double> CamT0(7), CamT1(7), CamT2(7), XT0(3), XT1(3), XT2(3);
  CamT0[0] = CamT2[0] = 1;
  XT1[0] = XT2[0] = 1;
  std::vector<double> R0(2), R1(2), R2(2);
  slope::derivative<project>(
      slope::dup(Cam.data(),
                 slope::lanes(CamT0.data(), CamT1.data(), CamT2.data())),
      slope::dup(X.data(), slope::lanes(XT0.data(), XT1.data(), XT2.data())), W,
      slope::dup(Res.data(), slope::lanes(R0.data(), R1.data(), R2.data())));
  std::vector<double> WBox = {W};
  auto Eval = [&] { return projectAt(Cam, X, WBox); };
  EXPECT_EQ(Res[0], Eval()[0]);
  EXPECT_EQ(Res[1], Eval()[1]);
  for (int Row = 0; Row < 2; ++Row) {
    double DCam = difference(Eval, Cam, 0, Row),
           DX = difference(Eval, X, 0, Row);
    EXPECT_TRUE(check::near(R0[Row], DCam, 1e-6, 1e-8)) << Row;
    EXPECT_TRUE(check::near(R1[Row], DX, 1e-6, 1e-8)) << Row;
    EXPECT_TRUE(check::near(R2[Row], DCam + DX, 1e-6, 1e-8)) << Row;
  }
}

TEST(VectorMode, ForwardLanesOfScalarsReturnAnArray) {
  const int N = 5;
  std::vector<double> X = {0.2, -0.7, 1.3, 0.6, -1.1};
  // Lanes: d/da, 2·d/da, 0 (a constant direction).
  auto [Value, Tangents] = slope::value_and_derivative<energy>(
      slope::constant(X.data()), slope::dual(0.9, slope::lanes(1, 2, 0)), N);
  EXPECT_DOUBLE_EQ(Value, energy(X.data(), 0.9, N));
  std::vector<double> ABox = {0.9};
  auto Eval = [&] {
    return std::array<double, 1>{energy(X.data(), ABox[0], N)};
  };
  double Reference = difference(Eval, ABox, 0, 0);
  EXPECT_TRUE(check::near(Tangents[0], Reference, 1e-6, 1e-8));
  EXPECT_TRUE(check::near(Tangents[1], 2 * Reference, 1e-6, 1e-8));
  EXPECT_EQ(Tangents[2], 0.0);
  // Reverse mode agrees.
  std::array<double, 2> DA = slope::grad<energy>(
      slope::dup(X.data(), slope::lanes(std::vector<double>(N).data(),
                                        std::vector<double>(N).data())),
      0.9, N);
  EXPECT_TRUE(check::near(Tangents[0], DA[0], 1e-12, 1e-14));
}

TEST(VectorMode, CustomPullbackRunsInEveryLane) {
  std::vector<double> X = {1.5, -2.0}, Y(2), D0(2), D1(2);
  std::vector<double> S0 = {1, 0}, S1 = {0, 1};
  slope::grad<useAmplified>(
      slope::dup(X.data(), slope::lanes(D0.data(), D1.data())),
      slope::dup(Y.data(), slope::lanes(S0.data(), S1.data())));
  // By the rule: ∂y0/∂x = (5·x1, x0), ∂y1/∂x = (0, 5).
  EXPECT_DOUBLE_EQ(D0[0], 5 * X[1]);
  EXPECT_DOUBLE_EQ(D0[1], X[0]);
  EXPECT_DOUBLE_EQ(D1[0], 0);
  EXPECT_DOUBLE_EQ(D1[1], 5);
}

// Recursive targets: the calls that stay calls take one split derivative
// that serves every lane.
void spread(const double *x, double a, double *y, int n) {
  if (n == 0)
    return;
  y[n - 1] = a * std::sin(x[n - 1]) + (n > 1 ? x[n - 2] * x[n - 1] : 0.0);
  spread(x, a * 0.9, y, n - 1);
}

double depth(const double *x, int n) {
  return n == 0 ? x[0] : x[n] * depth(x, n - 1) + std::cos(x[n]);
}

// The recursive call's result takes a different adjoint in each lane.
void depths(const double *x, double *out, int n) {
  out[0] = depth(x, n);
  out[1] = std::sin(depth(x + 1, n - 1));
}

TEST(VectorMode, RecursiveResultWithAnAdjointPerLane) {
  const int N = 4;
  const std::vector<double> X0 = {0.7, -0.2, 1.1, 0.4, -0.9};
  std::vector<double> Out(2), DX0(N + 1), DX1(N + 1);
  std::vector<double> Seed0 = {1, 0}, Seed1 = {0.5, 2};
  std::vector<double> DOut0 = Seed0, DOut1 = Seed1;
  slope::grad<depths>(
      slope::dup(X0.data(), slope::lanes(DX0.data(), DX1.data())),
      slope::dup(Out.data(), slope::lanes(DOut0.data(), DOut1.data())), N);
  for (int Lane = 0; Lane < 2; ++Lane) {
    const std::vector<double> &Seed = Lane == 0 ? Seed0 : Seed1;
    std::vector<double> Ref = check::arrayDifferences(
        [&](const double *XS) {
          double O[2];
          depths(XS, O, N);
          return Seed[0] * O[0] + Seed[1] * O[1];
        },
        X0.data(), N + 1);
    const std::vector<double> &DX = Lane == 0 ? DX0 : DX1;
    for (int I = 0; I <= N; ++I)
      EXPECT_TRUE(check::near(DX[I], Ref[I], 1e-6, 1e-9))
          << "lane " << Lane << " x[" << I << "]";
  }
}

TEST(VectorMode, RecursionServesEveryLane) {
  const int N = 5;
  const std::vector<double> X0 = {0.3, -1.1, 0.8, 1.7, -0.4};
  const std::array<std::vector<double>, 2> Seeds = {
      std::vector<double>{1, 0.5, -1, 2, 0.25},
      std::vector<double>{0, -2, 1.5, 1, 3}};
  const double A0 = 1.3;
  std::vector<double> X = X0, Y(N), DX0(N), DX1(N);
  std::vector<double> DY0 = Seeds[0], DY1 = Seeds[1];
  std::array<double, 2> DA = slope::grad<spread>(
      slope::dup(X.data(), slope::lanes(DX0.data(), DX1.data())), A0,
      slope::dup(Y.data(), slope::lanes(DY0.data(), DY1.data())), N);
  for (int Lane = 0; Lane < 2; ++Lane) {
    auto Weighted = [&](const double *XS, double A) {
      std::vector<double> YS(N);
      spread(XS, A, YS.data(), N);
      double S = 0;
      for (int I = 0; I < N; ++I)
        S += Seeds[Lane][I] * YS[I];
      return S;
    };
    std::vector<double> RefX = check::arrayDifferences(
        [&](const double *XS) { return Weighted(XS, A0); }, X0.data(), N);
    const std::vector<double> &DX = Lane == 0 ? DX0 : DX1;
    for (int I = 0; I < N; ++I)
      EXPECT_TRUE(check::near(DX[I], RefX[I], 1e-6, 1e-9))
          << "lane " << Lane << " x[" << I << "]";
    double RefA = static_cast<double>(check::centralDifference<0>(
        [&](double A) { return Weighted(X0.data(), A); }, A0));
    EXPECT_TRUE(check::near(DA[Lane], RefA, 1e-6, 1e-9)) << "lane " << Lane;
  }
  std::vector<double> PlainY(N);
  spread(X0.data(), A0, PlainY.data(), N);
  EXPECT_EQ(Y, PlainY);
}

TEST(VectorMode, RecursiveScalarResultInEveryLane) {
  const int N = 4;
  const std::vector<double> X0 = {0.7, -0.2, 1.1, 0.4, -0.9};
  std::vector<double> DX0(N + 1), DX1(N + 1);
  slope::grad<depth>(
      slope::dup(X0.data(), slope::lanes(DX0.data(), DX1.data())), N);
  std::vector<double> Ref = check::arrayDifferences(
      [&](const double *XS) { return depth(XS, N); }, X0.data(), N + 1);
  for (int I = 0; I <= N; ++I) {
    EXPECT_TRUE(check::near(DX0[I], Ref[I], 1e-6, 1e-9)) << "x[" << I << "]";
    EXPECT_TRUE(check::near(DX1[I], Ref[I], 1e-6, 1e-9)) << "x[" << I << "]";
  }
}

// Objects in vector mode: a container by const reference and a struct by
// value, each with one shadow object per lane given by address.
struct Gains {
  double a, b;
};
double weighted(const std::vector<double> &v, Gains g) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += std::sin(g.a * v[i]) + g.b * v[i] * v[i];
  return s;
}

TEST(VectorMode, ObjectsTakeOneShadowPerLane) {
  std::vector<double> v = {0.4, -1.2, 0.9};
  Gains g{0.7, 0.3};
  // Forward: lane 0 moves v along t0 and g.a; lane 1 moves v[2] and g.b.
  std::vector<double> t0 = {1, 0.5, 0}, t1 = {0, 0, 1};
  Gains tg0{1, 0}, tg1{0, 1};
  auto t = slope::derivative<weighted>(slope::dup(v, slope::lanes(&t0, &t1)),
                                       slope::dup(g, slope::lanes(&tg0, &tg1)));
  auto along = [&](const std::vector<double> &dv, Gains dg, double h) {
    std::vector<double> w = v;
    for (std::size_t i = 0; i < w.size(); ++i)
      w[i] += h * dv[i];
    return weighted(w, Gains{g.a + h * dg.a, g.b + h * dg.b});
  };
  EXPECT_TRUE(check::near(t[0],
                          check::centralDifference<0>(
                              [&](double h) { return along(t0, tg0, h); }, 0.0),
                          1e-7));
  EXPECT_TRUE(check::near(t[1],
                          check::centralDifference<0>(
                              [&](double h) { return along(t1, tg1, h); }, 0.0),
                          1e-7));
  // Reverse: every lane's result is seeded with 1, so each lane is the
  // whole gradient, accumulated into its own shadows.
  std::vector<double> g0(3, 0.0), g1(3, 1.0);
  Gains dg0{0, 0}, dg1{0, 0};
  slope::grad<weighted>(slope::dup(v, slope::lanes(&g0, &g1)),
                        slope::dup(g, slope::lanes(&dg0, &dg1)));
  for (int i = 0; i < 3; ++i) {
    double fd = check::centralDifference<0>(
        [&](double e) {
          std::vector<double> w = v;
          w[i] = e;
          return weighted(w, g);
        },
        v[i]);
    EXPECT_TRUE(check::near(g0[i], fd, 1e-7)) << "lane 0, v[" << i << "]";
    EXPECT_TRUE(check::near(g1[i] - 1.0, fd, 1e-7)) << "lane 1, v[" << i << "]";
  }
  double fa = check::centralDifference<0>(
      [&](double a) {
        return weighted(v, Gains{a, g.b});
      },
      g.a);
  EXPECT_TRUE(check::near(dg0.a, fa, 1e-7));
  EXPECT_TRUE(check::near(dg1.a, fa, 1e-7));
}

// Scalars bound to const references and constant objects in vector mode:
// reverse lanes return the scalar's adjoint per lane; forward lanes take
// slope::dual(k, slope::lanes(...)) for it.
struct Config {
  double c;
};
double bilinear(const double &k, const double *x, const Config &cfg) {
  return k * x[0] * x[1] + std::sin(k) * cfg.c;
}

TEST(VectorMode, ScalarReferencesAndConstantObjects) {
  double x[2] = {0.5, 2.0}, a0[2] = {0, 0}, a1[2] = {1, 1};
  Config cfg{3.0};
  double k = 1.5;
  std::array<double, 2> dk = slope::grad<bilinear>(
      k, slope::dup(x, slope::lanes(a0, a1)), slope::constant(&cfg));
  double fk = check::centralDifference<0>(
      [&](double e) { return bilinear(e, x, cfg); }, k);
  EXPECT_TRUE(check::near(dk[0], fk, 1e-7));
  EXPECT_TRUE(check::near(dk[1], fk, 1e-7));
  EXPECT_TRUE(check::near(a0[0], k * x[1], 1e-12));
  EXPECT_TRUE(check::near(a1[1] - 1.0, k * x[0], 1e-12));
  double t0[2] = {1, 0}, t1[2] = {0, 0};
  auto t = slope::derivative<bilinear>(slope::dual(k, slope::lanes(0.0, 1.0)),
                                       slope::dup(x, slope::lanes(t0, t1)),
                                       slope::constant(&cfg));
  EXPECT_TRUE(check::near(t[0], k * x[1], 1e-12));
  EXPECT_TRUE(check::near(t[1], fk, 1e-7));
}

} // namespace

SLOPE_CUSTOM_DERIVATIVE(amplified, amplifiedForward, amplifiedPullback);

// A container passed in that grows, with one shadow per lane: each lane's
// shadow gets its own new storage (forward: the final size and every
// tangent; reverse: the entry storage back, holding that lane's gradient).
double appendedScaled(std::vector<double> &v, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    v.push_back(std::sin(x[i]) * v[0]);
  double s = 0;
  for (double e : v)
    s += e * e;
  return s;
}

TEST(VectorMode, ContainerThatGrowsInEveryLane) {
  const int N = 3;
  const std::vector<double> X = {0.1, 0.2, 0.3}, Entries = {0.5, 0.7};
  auto value = [&](const double *E, const double *XS) {
    std::vector<double> v(E, E + 2);
    return appendedScaled(v, XS, N);
  };
  std::vector<double> RefV = check::arrayDifferences(
      [&](const double *E) { return value(E, X.data()); }, Entries.data(), 2);
  std::vector<double> RefX = check::arrayDifferences(
      [&](const double *XS) { return value(Entries.data(), XS); }, X.data(),
      N);
  std::vector<double> V = Entries, D0(2), D1(2);
  std::vector<double> DX0(N), DX1(N);
  slope::grad<appendedScaled>(
      slope::dup(V, slope::lanes(&D0, &D1)),
      slope::dup(X.data(), slope::lanes(DX0.data(), DX1.data())), N);
  ASSERT_EQ(D0.size(), 2u);
  ASSERT_EQ(D1.size(), 2u);
  for (int J = 0; J < 2; ++J) {
    EXPECT_TRUE(check::near(D0[J], RefV[J], 1e-6, 1e-9)) << J;
    EXPECT_TRUE(check::near(D1[J], RefV[J], 1e-6, 1e-9)) << J;
  }
  for (int I = 0; I < N; ++I)
    EXPECT_TRUE(check::near(DX1[I], RefX[I], 1e-6, 1e-9)) << I;
  std::vector<double> W = Entries, T0 = {1, 0}, T1 = {0, 1};
  std::vector<double> TX0(N), TX1(N);
  auto T = slope::derivative<appendedScaled>(
      slope::dup(W, slope::lanes(&T0, &T1)),
      slope::dup(X.data(), slope::lanes(TX0.data(), TX1.data())), N);
  EXPECT_TRUE(check::near(T[0], RefV[0], 1e-6, 1e-9));
  EXPECT_TRUE(check::near(T[1], RefV[1], 1e-6, 1e-9));
  ASSERT_EQ(T0.size(), 2u + N);
  ASSERT_EQ(T1.size(), 2u + N);
  for (int I = 0; I < N; ++I) {
    EXPECT_DOUBLE_EQ(T0[2 + I], std::sin(X[I])); // d(sin(x) v0) / dv0
    EXPECT_DOUBLE_EQ(T1[2 + I], 0.0);
  }
}
