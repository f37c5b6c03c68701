// Enzyme's entry points as C++ code declares them: function templates
// (mangled names), C++ targets (templates, namespaces, lambdas), standard
// containers, and exceptions thrown through a derivative.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
template <typename Ret, typename... Args> Ret __enzyme_autodiff(Args...);
template <typename Ret, typename... Args> Ret __enzyme_fwddiff(Args...);

// Result types of entry points need linkage (the templates are declared,
// never defined).
struct Gradient2 {
  double dx, dy;
};
struct Tangents2 {
  double first, second;
};

namespace {

namespace physics {
template <class T> T energy(const T *x, int n) {
  T e = 0;
  for (int i = 0; i < n; ++i)
    e += std::sin(x[i]) * x[i];
  return e;
}
} // namespace physics

float product(float x, float y) { return x * x * y; }

double checked_sqrt(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return std::sqrt(x);
}

TEST(EnzymeCxx, TemplateDeclarationsAndNamespacedTargets) {
  std::vector<double> X = {0.1, 0.2, 0.3}, Dx(3, 0.0);
  __enzyme_autodiff<void>((void *)physics::energy<double>, enzyme_dup, X.data(),
                          Dx.data(), enzyme_const, 3);
  for (int I = 0; I < 3; ++I)
    EXPECT_NEAR(Dx[I], std::cos(X[I]) * X[I] + std::sin(X[I]), 1e-12);
}

TEST(EnzymeCxx, FloatAdjointsIntoAStructOfDoubles) {
  Gradient2 G = __enzyme_autodiff<Gradient2>((void *)product, enzyme_out, 2.0f,
                                             enzyme_out, 3.0f);
  EXPECT_DOUBLE_EQ(G.dx, 12.0);
  EXPECT_DOUBLE_EQ(G.dy, 4.0);
}

TEST(EnzymeCxx, ForwardWithExactArgumentTypes) {
  float T = __enzyme_fwddiff<float>((void *)product, enzyme_dup, 2.0f, 1.0f,
                                    enzyme_const, 3.0f);
  EXPECT_FLOAT_EQ(T, 12.0f);
}

TEST(EnzymeCxx, VectorModeFromCxx) {
  Tangents2 T = __enzyme_fwddiff<Tangents2>((void *)product, enzyme_width, 2,
                                            enzyme_dup, 2.0f, 1.0f, 0.0f,
                                            enzyme_dup, 3.0f, 0.0f, 1.0f);
  EXPECT_DOUBLE_EQ(T.first, 12.0);
  EXPECT_DOUBLE_EQ(T.second, 4.0);
}

TEST(EnzymeCxx, CaptureLessLambdaTarget) {
  auto *Square = +[](double X) { return X * X * X; };
  EXPECT_DOUBLE_EQ(__enzyme_autodiff<double>((void *)Square, 2.0), 12.0);
}

TEST(EnzymeCxx, ExceptionsPassThroughTheDerivative) {
  EXPECT_DOUBLE_EQ(__enzyme_autodiff<double>((void *)checked_sqrt, 4.0), 0.25);
  EXPECT_THROW(__enzyme_autodiff<double>((void *)checked_sqrt, -1.0),
               std::domain_error);
}

} // namespace
