// A GoogleTest suite for a numeric kernel, using Slope's testing helpers.
#include <slope/testing.hpp>

#include <cmath>
#include <vector>

// Cross-entropy of a softmax over n logits against a target class.
double crossEntropy(const double *logits, int n, int target) {
  double top = logits[0];
  for (int i = 1; i < n; ++i)
    top = std::fmax(top, logits[i]);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += std::exp(logits[i] - top);
  return std::log(sum) + top - logits[target];
}

TEST(CrossEntropy, GradientMatchesFiniteDifferences) {
  std::vector<double> logits = {0.2, -1.3, 2.1, 0.7}, dlogits(4);
  SLOPE_EXPECT_GRADIENT(crossEntropy,
                        slope::dup(logits.data(), dlogits.data(), 4), 4, 2);
}

TEST(CrossEntropy, GradientIsSoftmaxMinusOneHot) {
  std::vector<double> logits = {0.2, -1.3, 2.1, 0.7}, g(4, 0.0);
  slope::grad<crossEntropy>(slope::dup(logits.data(), g.data(), 4), 4, 2);
  double sum = 0;
  for (double l : logits)
    sum += std::exp(l);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(g[i], std::exp(logits[i]) / sum - (i == 2), 1e-14);
}
