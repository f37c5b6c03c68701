// slope/testing.hpp: check_gradient passes on right derivatives (scalars,
// arrays in and out, void kernels, constants, floats) and fails, with a
// message naming the worst components, on a deliberately wrong custom
// derivative, in both of the calls it makes (with and without extents); it
// leaves the caller's data as it was. A jump of the function within the
// first difference step is stepped over; a wrong derivative beside one
// still fails.
#include <slope/testing.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace {

double bowl(double x, double y) { return x * x * std::sin(y) + std::exp(x); }

double weightedNorm(const double *x, const double *w, int n, double p) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * std::pow(std::fabs(x[i]) + 1, p);
  return s;
}

// A void kernel: y = A·x (3×3), outputs through a dup'd array.
void matvec(const double *a, const double *x, double *y) {
  for (int i = 0; i < 3; ++i) {
    y[i] = 0;
    for (int j = 0; j < 3; ++j)
      y[i] += a[3 * i + j] * x[j];
  }
}

float softplus(float x) { return std::log1p(std::exp(x)); }

// Its custom derivative is off by 10%: the check must catch it.
double cube(double x) { return x * x * x; }
slope::Dual<double> cube_forward(double x, double dx) {
  return {x * x * x, 3.3 * x * x * dx};
}
double cube_pullback(double x, double dy) { return 3.3 * x * x * dy; }
SLOPE_CUSTOM_DERIVATIVE(cube, cube_forward, cube_pullback);

double usesCube(double x, double y) { return cube(x) + y; }

// Jumps by 1 just above 0.7: within the first difference step of a float
// (h = ∛ε ≈ 4.9e-3), beyond a step 16 times smaller.
float stepUp(float x) { return x * x + (x > 0.703f ? 1.0f : 0.0f); }

// The wrong derivative next to a jump within the first step of a double.
double cubeBelowAJump(double x) { return cube(x) + (x > 1.200001 ? 1.0 : 0.0); }

} // namespace

TEST(TestingHelpers, ScalarFunction) { SLOPE_EXPECT_GRADIENT(bowl, 0.7, 1.3); }

TEST(TestingHelpers, ArraysConstantsAndIntegers) {
  std::vector<double> x = {0.5, -1.5, 2.0, 0.25}, w = {1, 2, 3, 4};
  std::vector<double> dx(4, 0.0), before = x;
  SLOPE_EXPECT_GRADIENT(weightedNorm, slope::dup(x.data(), dx.data(), 4),
                        slope::constant(w.data()), 4, 1.7);
  EXPECT_EQ(x, before);
  EXPECT_EQ(dx, std::vector<double>(4, 0.0));
}

TEST(TestingHelpers, VoidKernelWithOutputArray) {
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 9}, x = {0.1, 0.2, 0.3};
  std::vector<double> y(3, 0.0), da(9), dx(3), dy(3);
  SLOPE_EXPECT_GRADIENT(matvec, slope::dup(a.data(), da.data(), 9),
                        slope::dup(x.data(), dx.data(), 3),
                        slope::dup(y.data(), dy.data(), 3));
}

TEST(TestingHelpers, FloatsWithTolerance) {
  EXPECT_TRUE(slope::testing::check_gradient<softplus>(
      slope::testing::Tolerance{1e-3, 1e-4}, 0.4f));
}

TEST(TestingHelpers, WrongCustomDerivativeFails) {
  ::testing::AssertionResult Result =
      slope::testing::check_gradient<usesCube>(1.2, 0.5);
  ASSERT_FALSE(Result);
  std::string Message = Result.message();
  EXPECT_NE(Message.find("argument 1: AD 4.752"), std::string::npos) << Message;
  EXPECT_NE(Message.find("FD 4.32"), std::string::npos) << Message;
  EXPECT_NE(Message.find("relative error"), std::string::npos) << Message;
  // The second call, as a caller without extents makes it, is checked too.
  EXPECT_NE(Message.find("argument 1 (called without extents): AD 4.752"),
            std::string::npos)
      << Message;
}

TEST(TestingHelpers, JumpWithinTheFirstStep) {
  EXPECT_TRUE(slope::testing::check_gradient<stepUp>(
      slope::testing::Tolerance{1e-3, 1e-4}, 0.7f));
}

TEST(TestingHelpers, WrongDerivativeBesideAJumpFails) {
  ::testing::AssertionResult Result =
      slope::testing::check_gradient<cubeBelowAJump>(1.2);
  ASSERT_FALSE(Result);
  std::string Message = Result.message();
  EXPECT_NE(Message.find("argument 1: AD 4.752"), std::string::npos) << Message;
}
