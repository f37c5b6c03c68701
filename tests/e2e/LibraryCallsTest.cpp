// Library calls that cannot influence a result (output, formatting,
// clocks, random numbers, assertions) need no derivative code, even when
// they are passed active values; the derivative is that of the rest.
#include "Expect.h"

#include <slope/slope.hpp>

#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <ostream>
#include <string>
#include <vector>

namespace {

// A stream without a buffer: output goes nowhere.
std::ostream Log(nullptr);

double logged(double X) {
  Log << "x = " << X << std::endl;
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%g", X * 2);
  std::printf("%s", "");
  std::string Text = std::to_string(X);
  assert(X > -1e300);
  return X * std::sin(X) + (Text.empty() ? 1.0 : 0.0) +
         (Buffer[0] == '\0' ? 1.0 : 0.0);
}

double timedAndRandom(double X) {
  auto Start = std::chrono::steady_clock::now();
  std::time_t Now = std::time(nullptr);
  double Noise = std::rand() % 2 == 2 ? 1.0 : 0.0; // never taken
  std::clock_t Ticks = std::clock();
  (void)Start, (void)Now, (void)Ticks;
  if (std::isnan(X))
    std::abort();
  return std::exp(X) + Noise;
}

} // namespace

TEST(LibraryCalls, OutputAndFormattingAreInactive) {
  check::expectFirstArg<logged>(0.9, std::sin(0.9) + 0.9 * std::cos(0.9),
                                1e-15);
}

TEST(LibraryCalls, ClocksRandomNumbersAndAbortAreInactive) {
  check::expectFirstArg<timedAndRandom>(0.4, std::exp(0.4), 1e-15);
}

// Library functions that return results through pointers: frexp's
// mantissa, modf's fraction and whole part, posix_memalign's block. The
// derivative computes the same bits as the plain call (value_and_grad's
// value is compared exactly, at zeros and negative whole numbers too).
namespace {

double mantissaSquared(double x) {
  int e;
  double m = std::frexp(x, &e);
  return m * m * e + x;
}
float mantissaSquaredF(float x) {
  int e;
  float m = std::frexp(x, &e);
  return m * m * e + x;
}
double fractionAndWhole(double x) {
  double whole;
  double f = std::modf(x, &whole);
  return f * f + whole * x + std::copysign(1.0, f);
}
double alignedScratch(const double *x, int n) {
  void *p = nullptr;
  if (posix_memalign(&p, 64, n * sizeof(double)) != 0)
    return 0;
  double *d = static_cast<double *>(p);
  for (int i = 0; i < n; ++i)
    d[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(d[i]);
  std::free(p);
  return s;
}

} // namespace

TEST(LibraryCalls, FrexpModfPosixMemalign) {
  for (double x : {3.3, 0.7, -5.25, 1024.5}) {
    check::expectFirstArgFD<mantissaSquared>(x);
    check::expectFirstArgFD<fractionAndWhole>(x);
  }
  for (double x : {0.0, -3.0, 4.0, -0.0}) {
    EXPECT_EQ(slope::value_and_grad<mantissaSquared>(x).value,
              mantissaSquared(x));
    auto [value, grad] = slope::value_and_grad<fractionAndWhole>(x);
    EXPECT_EQ(value, fractionAndWhole(x)) << x; // modf(-3) is -0.0
    EXPECT_TRUE(
        check::near(grad, 2 * std::modf(x, &value) + std::trunc(x), 1e-15))
        << x;
  }
  EXPECT_TRUE(check::near(slope::grad<mantissaSquaredF>(3.3f), 1.825f, 1e-6));
  std::vector<double> x = check::wave(5, 0.9), dx(5, 0.0);
  slope::grad<alignedScratch>(slope::dup(x.data(), dx.data()), 5);
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(check::near(dx[i], 2 * x[i] * std::cos(x[i] * x[i]), 1e-14));
  std::vector<double> t(5, 0.0);
  t[2] = 1;
  EXPECT_TRUE(check::near(
      slope::derivative<alignedScratch>(slope::dup(x.data(), t.data()), 5),
      dx[2], 1e-14));
}
