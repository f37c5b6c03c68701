// A least-squares fit written with Eigen: the residual of a quadratic
// model over data, its gradient with respect to the coefficients by
// Slope, checked against the normal equations' solution.
#include <slope/slope.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <cstdio>

constexpr int Points = 30;

double residual(const double *coefficients, const double *data) {
  Eigen::Map<const Eigen::Vector3d> c(coefficients);
  Eigen::Map<const Eigen::Matrix<double, Points, 2>> xy(data);
  Eigen::Matrix<double, Points, 3> design;
  design.col(0).setOnes();
  design.col(1) = xy.col(0);
  design.col(2) = xy.col(0).cwiseProduct(xy.col(0));
  return 0.5 * (design * c - xy.col(1)).squaredNorm();
}

int main() {
  Eigen::Matrix<double, Points, 2> data;
  for (int i = 0; i < Points; ++i) {
    double x = -1 + 2.0 * i / (Points - 1);
    data(i, 0) = x;
    data(i, 1) = 0.5 - 1.5 * x + 2.0 * x * x + 0.05 * std::sin(7 * x);
  }
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (int step = 0; step < 5000; ++step) {
    Eigen::Vector3d g = Eigen::Vector3d::Zero();
    slope::grad<residual>(slope::dup(c.data(), g.data()),
                          slope::constant(data.data()));
    c -= 0.02 * g;
  }
  // The exact minimizer, from the normal equations.
  Eigen::Matrix<double, Points, 3> design;
  design.col(0).setOnes();
  design.col(1) = data.col(0);
  design.col(2) = data.col(0).cwiseProduct(data.col(0));
  Eigen::Vector3d exact = (design.transpose() * design)
                              .ldlt()
                              .solve(design.transpose() * data.col(1));
  std::printf("gradient descent: %.5f %.5f %.5f\n", c(0), c(1), c(2));
  std::printf("normal equations: %.5f %.5f %.5f\n", exact(0), exact(1),
              exact(2));
  return (c - exact).norm() < 1e-4 ? 0 : 1;
}
