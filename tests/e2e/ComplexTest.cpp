// std::complex<double> and std::complex<float> inside differentiated
// functions: arithmetic (__muldc3/__divdc3, __mulsc3/__divsc3), abs, arg,
// exp, log, sqrt, pow, polar, conj and norm, in functions of real inputs.
// Both modes against central differences (float against double);
// value_and_grad's value is the plain call's, bit for bit.
#include "Check.h"

#include <slope/slope.hpp>

#include <complex>

namespace {

using Complex = std::complex<double>;

double arithmetic(double x, double y) {
  Complex z(x, y), w(y - 0.3, 0.5 * x);
  Complex q = z * w / (z + 1.0) - std::conj(w) * Complex(0.2, -0.7);
  return q.real() + 2 * q.imag() + std::norm(q);
}

double transcendental(double x, double y) {
  Complex z(x, y);
  return std::abs(std::exp(z)) + std::arg(z) + std::log(z).imag() +
         std::sqrt(z).real() + std::pow(z, 2.5).imag() +
         std::polar(x, y).imag() + std::abs(z * z);
}

double rootsAndLogs(double x, double y) {
  Complex z(x, y);
  Complex s = std::sqrt(z * z + 1.0);
  return (std::log(z + s) * std::exp(-z)).real();
}

// The same in float and double: std::complex<float> passes <2 x float>
// to cexpf, clogf, csqrtf, cabsf, cargf and gets one from __mulsc3.
template <class T> T inBothPrecisions(T x, T y) {
  std::complex<T> z(x, y), w = z * z / (z + T(1));
  return std::abs(std::exp(w)) + std::arg(z) + std::log(z).imag() +
         std::sqrt(z).real();
}

} // namespace

TEST(Complex, Arithmetic) {
  for (auto [x, y] : {std::pair{0.7, -1.2}, {1.5, 0.4}, {-0.8, 2.1}}) {
    auto [gx, gy] = slope::grad<arithmetic>(x, y);
    EXPECT_TRUE(
        check::near(gx, check::centralDifference<0>(arithmetic, x, y), 1e-7));
    EXPECT_TRUE(
        check::near(gy, check::centralDifference<1>(arithmetic, x, y), 1e-7));
    double t = slope::derivative<arithmetic>(slope::dual(x, 1.0), y);
    EXPECT_TRUE(check::near(t, gx, 1e-12));
    EXPECT_EQ(slope::value_and_grad<arithmetic>(x, y).value, arithmetic(x, y));
  }
}

TEST(Complex, Transcendental) {
  for (auto [x, y] : {std::pair{0.7, -1.2}, {1.5, 0.4}, {-0.8, 2.1}}) {
    auto [gx, gy] = slope::grad<transcendental>(x, y);
    EXPECT_TRUE(check::near(
        gx, check::centralDifference<0>(transcendental, x, y), 1e-7, 1e-8));
    EXPECT_TRUE(check::near(
        gy, check::centralDifference<1>(transcendental, x, y), 1e-7, 1e-8));
    double t = slope::derivative<transcendental>(x, slope::dual(y, 1.0));
    EXPECT_TRUE(check::near(t, gy, 1e-12));
    EXPECT_EQ(slope::value_and_grad<transcendental>(x, y).value,
              transcendental(x, y));

    auto [hx, hy] = slope::grad<rootsAndLogs>(x, y);
    EXPECT_TRUE(check::near(hx, check::centralDifference<0>(rootsAndLogs, x, y),
                            1e-7, 1e-8));
    EXPECT_TRUE(check::near(hy, check::centralDifference<1>(rootsAndLogs, x, y),
                            1e-7, 1e-8));
  }
}

TEST(Complex, FloatAgreesWithDouble) {
  for (auto [x, y] : {std::pair{0.7, 0.4}, {-0.5, 1.3}}) {
    auto [dx, dy] = slope::grad<inBothPrecisions<double>>(x, y);
    EXPECT_TRUE(check::near(
        dx, check::centralDifference<0>(inBothPrecisions<double>, x, y), 1e-7,
        1e-8));
    auto [fx, fy] = slope::grad<inBothPrecisions<float>>(float(x), float(y));
    EXPECT_TRUE(check::near(fx, dx, 1e-4, 1e-5));
    EXPECT_TRUE(check::near(fy, dy, 1e-4, 1e-5));
    float t = slope::derivative<inBothPrecisions<float>>(
        slope::dual(float(x), 1.0f), float(y));
    EXPECT_TRUE(check::near(t, fx, 1e-5, 1e-6));
    EXPECT_EQ(slope::value_and_grad<inBothPrecisions<float>>(float(x), float(y))
                  .value,
              inBothPrecisions<float>(float(x), float(y)));
  }
}
