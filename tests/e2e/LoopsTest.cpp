// Loops in both modes: counted, data-dependent exits, nested and
// triangular with break/continue, and a long scalar recurrence whose reverse
// sweep reads a tape of a million frames.
#include "Expect.h"

#include <slope/slope.hpp>
#include <slope/testing.hpp>

#include <cmath>
#include <thread>
#include <vector>

namespace {

template <class T> T power(T x, int n) {
  T r = 1;
  for (int i = 0; i < n; ++i)
    r *= x;
  return r;
}

// Newton's iteration for sqrt(a), until converged: the trip count depends
// on the data.
double newtonSqrt(double a) {
  double x = a > 1 ? a : 1.0;
  for (int i = 0; i < 100; ++i) {
    double next = 0.5 * (x + a / x);
    if (std::fabs(next - x) <= 1e-15 * next)
      return next;
    x = next;
  }
  return x;
}

double triangular(double x, double y, int n) {
  double s = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 0; j < i; ++j) {
      if (j == 2)
        continue;
      s += std::sin(x * i + y * j) / (j + 1);
      if (s > 3.0)
        break;
    }
  return s;
}

double whileLoop(double x) {
  double y = x;
  int k = 0;
  while (y < 10.0 && k < 50) {
    y = y * 1.5 + std::exp(-y);
    ++k;
  }
  do {
    y -= 0.25 * std::sqrt(y);
  } while (y > 8.0);
  return y;
}

double recurrence(double x, long n) {
  double y = x;
  for (long i = 0; i < n; ++i)
    y = std::sin(y) * 0.5 + x * 0.5;
  return y;
}

// Coefficients read in every iteration from memory the loop does not
// write: the reverse sweep sums their adjoints across the loop and adds the
// sum to the shadow once, where it leaves the loop.
double eulerSteps(double *__restrict x, const double *__restrict c, int n,
                  int steps) {
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < n; ++i)
      x[i] += c[0] * std::sin(x[i]) + c[1] * c[0] * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (1 + 0.5 * i) * x[i];
  return r;
}

// Only some iterations read the coefficient (none when n is 0).
double guardedReads(double *__restrict x, const double *__restrict c, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > 0.5)
      r += c[0] * x[i] * x[i];
    r += c[1] * std::cos(x[i]);
  }
  return r;
}

TEST(Loops, CountedLoop) {
  for (int N : {0, 1, 5})
    check::expectFirstArg<power<double>>(
        1.3, N == 0 ? 0.0 : N * std::pow(1.3L, N - 1), 1e-13, N);
}

TEST(Loops, IterateUntilConverged) {
  for (double A : {0.25, 2.0, 10.0})
    check::expectFirstArg<newtonSqrt>(A, 0.5 / std::sqrt(A), 1e-9);
}

TEST(Loops, TriangularNestWithBreakAndContinue) {
  for (int N : {3, 6}) {
    double X = 0.4, Y = -0.3;
    auto F = [&](double x, double y) { return triangular(x, y, N); };
    auto [GX, GY] = slope::grad<triangular>(X, Y, N);
    EXPECT_TRUE(check::near(GX, check::centralDifference<0>(F, X, Y), 1e-7));
    EXPECT_TRUE(check::near(GY, check::centralDifference<1>(F, X, Y), 1e-7));
    EXPECT_TRUE(check::near(
        slope::derivative<triangular>(slope::dual(X, 1.0), Y, N), GX, 1e-12));
    EXPECT_TRUE(check::near(
        slope::derivative<triangular>(X, slope::dual(Y, 1.0), N), GY, 1e-12));
  }
}

TEST(Loops, WhileAndDoWhile) {
  for (double X : {0.5, 3.0, 12.0})
    check::expectFirstArg<whileLoop>(
        X, check::centralDifference<0>(whileLoop, X), 1e-6);
}

TEST(Loops, MillionIterationRecurrence) {
  // y ← sin(y)/2 + x/2 converges to a fixed point y*(x) with
  // dy*/dx = (1/2) / (1 - cos(y*)/2).
  double X = 0.3;
  double Y = recurrence(X, 1000000);
  double Expected = 0.5 / (1 - 0.5 * std::cos(Y));
  check::expectFirstArg<recurrence>(X, Expected, 1e-12, 1000000L);
}

TEST(Loops, InvariantReadsSummedAcrossTheLoop) {
  std::vector<double> X = check::wave(6, 0.7), DX(6), C = {0.3, -0.2}, DC(2);
  EXPECT_TRUE(slope::testing::check_gradient<eulerSteps>(
      slope::dup(X.data(), DX.data(), 6), slope::dup(C.data(), DC.data(), 2), 6,
      3));
  for (int N : {1, 7}) {
    std::vector<double> Y = check::wave(N, 0.9), DY(N);
    EXPECT_TRUE(slope::testing::check_gradient<guardedReads>(
        slope::dup(Y.data(), DY.data(), N), slope::dup(C.data(), DC.data(), 2),
        N))
        << "n = " << N;
  }
  // No iteration: nothing is added to the coefficients' shadow.
  double Y = 0.7, DY = 0, Zero[2] = {0, 0};
  slope::grad<guardedReads>(slope::dup(&Y, &DY), slope::dup(C.data(), Zero),
                            0);
  EXPECT_EQ(Zero[0], 0.0);
  EXPECT_EQ(Zero[1], 0.0);
}

TEST(Loops, InvariantReadsSummedInVectorMode) {
  std::vector<double> X = check::wave(6, 0.7), C = {0.3, -0.2};
  std::vector<double> DX(6), DC(2);
  {
    std::vector<double> Xs = X;
    slope::grad<eulerSteps>(slope::dup(Xs.data(), DX.data()),
                            slope::dup(C.data(), DC.data()), 6, 3);
  }
  std::vector<double> X0(6), X1(6), C0(2), C1(2);
  slope::grad<eulerSteps>(
      slope::dup(X.data(), slope::lanes(X0.data(), X1.data())),
      slope::dup(C.data(), slope::lanes(C0.data(), C1.data())), 6, 3);
  for (int I = 0; I < 2; ++I) {
    EXPECT_NEAR(C0[I], DC[I], 1e-12 * std::fabs(DC[I]))
        << "lane 0, c[" << I << "]";
    EXPECT_NEAR(C1[I], DC[I], 1e-12 * std::fabs(DC[I]))
        << "lane 1, c[" << I << "]";
  }
}

TEST(Loops, EachThreadKeepsItsOwnTapeBuffer) {
  // Tapes of different sizes, one after another on each thread (a kept
  // buffer is reused, replaced by a larger one, or left alone), on several
  // threads at once; each thread's buffer is freed when it ends (ASan's
  // leak check sees the rest).
  const long Sizes[] = {20000, 300, 100000, 5000};
  auto Expected = [&](double X, long N) {
    return slope::grad<recurrence>(X, N);
  };
  std::vector<double> Want;
  for (int T = 0; T < 3; ++T)
    for (long N : Sizes)
      Want.push_back(Expected(0.1 * T + 0.2, N));
  std::vector<double> Got(Want.size());
  std::vector<std::thread> Threads;
  for (int T = 0; T < 3; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 4; ++I)
        Got[T * 4 + I] = slope::grad<recurrence>(0.1 * T + 0.2, Sizes[I]);
    });
  for (std::thread &Thread : Threads)
    Thread.join();
  EXPECT_EQ(Got, Want);
  EXPECT_NEAR(Want[2], 0.5 / (1 - 0.5 * std::cos(recurrence(0.2, 100000))),
              1e-12);
}

} // namespace
