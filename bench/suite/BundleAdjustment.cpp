// Bundle adjustment reprojection error (ADBench): camera = [r(3), C(3), f,
// u0, v0, k1, k2]; Xcam = Rodrigues(r)·(X - C) (X - C + r×(X - C) when
// ‖r‖ = 0); p = Xcam[0:2]/Xcam[2]; p ← p·(1 + k1‖p‖² + k2‖p‖⁴);
// residual = w·(f·p + (u0, v0) - feature). The Jacobian of the two
// residuals with respect to the 15 parameters (camera, point, weight) of
// each of 10⁴ observations; observation i uses camera i mod n_cams and
// point i mod n_points.
#include "Kernel.h"

#include <slope/slope.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace {

constexpr int CamSize = 11, Params = 15;

void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

void reprojection(const double *cam, const double *X, double w,
                  const double *feature, double *res) {
  const double *r = cam, *C = cam + 3;
  double xc[3] = {X[0] - C[0], X[1] - C[1], X[2] - C[2]}, y[3];
  double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sq != 0) {
    double theta = std::sqrt(sq), c = std::cos(theta), s = std::sin(theta);
    double k[3] = {r[0] / theta, r[1] / theta, r[2] / theta}, kx[3];
    cross(k, xc, kx);
    double kdot = (k[0] * xc[0] + k[1] * xc[1] + k[2] * xc[2]) * (1 - c);
    for (int j = 0; j < 3; ++j)
      y[j] = xc[j] * c + kx[j] * s + k[j] * kdot;
  } else {
    double rx[3];
    cross(r, xc, rx);
    for (int j = 0; j < 3; ++j)
      y[j] = xc[j] + rx[j];
  }
  double p0 = y[0] / y[2], p1 = y[1] / y[2];
  double rsq = p0 * p0 + p1 * p1;
  double L = 1 + cam[9] * rsq + cam[10] * rsq * rsq;
  res[0] = w * (cam[6] * p0 * L + cam[7] - feature[0]);
  res[1] = w * (cam[6] * p1 * L + cam[8] - feature[1]);
}

/// The 2×15 Jacobian of reprojection by the chain rule, row-major.
void reprojectionJacobian(const double *cam, const double *X, double w,
                          const double *feature, double *jac) {
  const double *r = cam, *C = cam + 3;
  double xc[3] = {X[0] - C[0], X[1] - C[1], X[2] - C[2]}, y[3];
  double R[3][3], Jr[3][3]; // ∂y/∂xc and ∂y/∂r
  double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sq != 0) {
    double theta = std::sqrt(sq), c = std::cos(theta), s = std::sin(theta);
    double k[3] = {r[0] / theta, r[1] / theta, r[2] / theta}, kx[3];
    cross(k, xc, kx);
    double kd = k[0] * xc[0] + k[1] * xc[1] + k[2] * xc[2];
    double dyTheta[3];
    for (int j = 0; j < 3; ++j) {
      y[j] = xc[j] * c + kx[j] * s + k[j] * kd * (1 - c);
      dyTheta[j] = -s * xc[j] + c * kx[j] + s * k[j] * kd;
    }
    // ∂y/∂k = -s·[xc]× + (1 - c)·(kd·I + k·xcᵀ); ∂k/∂r = (I - k·kᵀ)/θ.
    double xcCross[3][3] = {
        {0, -xc[2], xc[1]}, {xc[2], 0, -xc[0]}, {-xc[1], xc[0], 0}};
    double kCross[3][3] = {
        {0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
    double dyK[3][3], dkR[3][3];
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        double id = a == b ? 1 : 0;
        dyK[a][b] = -s * xcCross[a][b] + (1 - c) * (kd * id + k[a] * xc[b]);
        dkR[a][b] = (id - k[a] * k[b]) / theta;
        R[a][b] = c * id + s * kCross[a][b] + (1 - c) * k[a] * k[b];
      }
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        double v = dyTheta[a] * r[b] / theta;
        for (int m = 0; m < 3; ++m)
          v += dyK[a][m] * dkR[m][b];
        Jr[a][b] = v;
      }
  } else {
    double rx[3];
    cross(r, xc, rx);
    double xcCross[3][3] = {
        {0, -xc[2], xc[1]}, {xc[2], 0, -xc[0]}, {-xc[1], xc[0], 0}};
    double rCross[3][3] = {
        {0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
    for (int a = 0; a < 3; ++a) {
      y[a] = xc[a] + rx[a];
      for (int b = 0; b < 3; ++b) {
        R[a][b] = (a == b ? 1 : 0) + rCross[a][b];
        Jr[a][b] = -xcCross[a][b];
      }
    }
  }
  double p[2] = {y[0] / y[2], y[1] / y[2]};
  double rsq = p[0] * p[0] + p[1] * p[1];
  double f = cam[6], k1 = cam[9], k2 = cam[10];
  double L = 1 + k1 * rsq + k2 * rsq * rsq, dL = k1 + 2 * k2 * rsq;
  // ∂p/∂y, then ∂q/∂p with q = L·p.
  double dpY[2][3] = {{1 / y[2], 0, -y[0] / (y[2] * y[2])},
                      {0, 1 / y[2], -y[1] / (y[2] * y[2])}};
  double dqP[2][2];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      dqP[a][b] = (a == b ? L : 0) + p[a] * dL * 2 * p[b];
  for (int row = 0; row < 2; ++row) {
    double *J = jac + row * Params;
    double dY[3]; // ∂res_row/∂y
    for (int b = 0; b < 3; ++b)
      dY[b] = w * f * (dqP[row][0] * dpY[0][b] + dqP[row][1] * dpY[1][b]);
    for (int b = 0; b < 3; ++b) {
      double dr = 0, dx = 0;
      for (int a = 0; a < 3; ++a) {
        dr += dY[a] * Jr[a][b];
        dx += dY[a] * R[a][b];
      }
      J[b] = dr;
      J[3 + b] = -dx;
      J[CamSize + b] = dx;
    }
    double q = L * p[row];
    J[6] = w * q;
    J[7] = row == 0 ? w : 0;
    J[8] = row == 1 ? w : 0;
    J[9] = w * f * p[row] * rsq;
    J[10] = w * f * p[row] * rsq * rsq;
    J[14] = f * q + cam[7 + row] - feature[row];
  }
}

class BundleAdjustment : public bench::Kernel {
public:
  BundleAdjustment(int Cams, int Points, int Obs)
      : Cams(Cams), Points(Points), Obs(Obs), Res(2 * Obs) {
    Cam = bench::wave(Cams * CamSize, 0.1);
    for (int I = 0; I < Cams; ++I) {
      double *c = &Cam[I * CamSize];
      if (I == 0)
        c[0] = c[1] = c[2] = 0; // the first-order branch
      c[3] = c[4] = 0;
      c[5] = -5;          // cameras behind the points: Xcam[2] > 0
      c[6] = 500 + I;     // focal length
      c[7] = c[8] = 1e-2; // principal point
    }
    X = bench::wave(Points * 3, 1.0, 0.5);
    W = bench::wave(Obs, 0.2, 0.9);
    for (double &V : W)
      V += 1;
    Feature = bench::wave(Obs * 2, 50.0, 0.3);
    SlopeGrad.resize(Obs * 2 * Params);
    HandGrad.resize(Obs * 2 * Params);
  }
  std::string name() const override { return "ba obs=" + std::to_string(Obs); }
  void primal() override {
    for (int I = 0; I < Obs; ++I)
      reprojection(&Cam[(I % Cams) * CamSize], &X[(I % Points) * 3], W[I],
                   &Feature[2 * I], &Res[2 * I]);
  }
  // Both rows of the Jacobian from one primal sweep (vector reverse mode).
  void slope() override {
    std::fill(SlopeGrad.begin(), SlopeGrad.end(), 0.0);
    for (int I = 0; I < Obs; ++I) {
      double *J0 = &SlopeGrad[I * 2 * Params], *J1 = J0 + Params;
      double Out[2], Seed0[2] = {1, 0}, Seed1[2] = {0, 1};
      std::array<double, 2> DW = slope::grad<reprojection>(
          slope::dup(&Cam[(I % Cams) * CamSize], slope::lanes(J0, J1)),
          slope::dup(&X[(I % Points) * 3],
                     slope::lanes(J0 + CamSize, J1 + CamSize)),
          W[I], slope::constant(&Feature[2 * I]),
          slope::dup(Out, slope::lanes(Seed0, Seed1)));
      J0[14] = DW[0];
      J1[14] = DW[1];
    }
  }
  void hand() override {
    std::fill(HandGrad.begin(), HandGrad.end(), 0.0);
    for (int I = 0; I < Obs; ++I)
      reprojectionJacobian(&Cam[(I % Cams) * CamSize], &X[(I % Points) * 3],
                           W[I], &Feature[2 * I], &HandGrad[I * 2 * Params]);
  }

private:
  int Cams, Points, Obs;
  std::vector<double> Cam, X, W, Feature, Res;
};

bench::Registration Register("2 ba", [](bench::KernelList &Out, bool Quick) {
  Out.push_back(Quick ? std::make_unique<BundleAdjustment>(3, 7, 40)
                      : std::make_unique<BundleAdjustment>(20, 500, 10000));
});

} // namespace
