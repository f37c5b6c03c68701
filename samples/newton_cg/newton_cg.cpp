// Newton's method with Hessian-vector products (Newton-CG) beside plain
// gradient descent, on the Rosenbrock function in 20 dimensions from the
// classic start (-1.2, 1, -1.2, 1, ...).
//
// Newton-CG never forms the Hessian: each outer iteration solves
// H p = -g approximately by conjugate gradients, and every CG step needs
// one product H v, which slope::hvp computes by forward mode over the
// reverse-mode gradient (a few gradients' cost). Both methods use the
// same backtracking line search.
#include <slope/operations.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int N = 20;

double rosenbrock(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

using Vector = std::vector<double>;

double dot(const Vector &a, const Vector &b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

Vector gradient(const Vector &x) {
  Vector g(x.size());
  slope::grad<rosenbrock>(slope::dup(x.data(), g.data()), N);
  return g;
}

/// Backtracking (Armijo) along descent direction p; returns the step.
double lineSearch(Vector &x, const Vector &p, const Vector &g) {
  double f0 = rosenbrock(x.data(), N), slope0 = dot(g, p), t = 1;
  Vector trial(x.size());
  for (int k = 0; k < 60; ++k, t *= 0.5) {
    for (std::size_t i = 0; i < x.size(); ++i)
      trial[i] = x[i] + t * p[i];
    if (rosenbrock(trial.data(), N) <= f0 + 1e-4 * t * slope0)
      break;
  }
  x = trial;
  return t;
}

/// Steps of the truncated-Newton direction: CG on H p = -g, stopped at a
/// relative residual that tightens as g shrinks, or at negative curvature.
Vector newtonDirection(const Vector &x, const Vector &g, int &products) {
  Vector p(x.size()), r(g), d(g), Hd;
  for (double &v : d)
    v = -v;
  for (double &v : r)
    v = -v;
  double gnorm = std::sqrt(dot(g, g));
  double tolerance = std::min(0.5, std::sqrt(gnorm)) * gnorm;
  for (int k = 0; k < 2 * N; ++k) {
    Hd = slope::hvp<rosenbrock>(d, slope::wrt(x.data(), N), N);
    ++products;
    double curvature = dot(d, Hd);
    if (curvature <= 0) // not convex here: what CG has so far, or -g
      return k == 0 ? d : p;
    double rr = dot(r, r), alpha = rr / curvature;
    for (int i = 0; i < N; ++i) {
      p[i] += alpha * d[i];
      r[i] -= alpha * Hd[i];
    }
    double rrNext = dot(r, r);
    if (std::sqrt(rrNext) < tolerance)
      break;
    for (int i = 0; i < N; ++i)
      d[i] = r[i] + rrNext / rr * d[i];
  }
  return p;
}

Vector start() {
  Vector x(N);
  for (int i = 0; i < N; ++i)
    x[i] = i % 2 == 0 ? -1.2 : 1.0;
  return x;
}

} // namespace

int main() {
  const double tolerance = 1e-8;
  const int limit = 100000;

  Vector x = start();
  int descent = 0;
  for (Vector g = gradient(x);
       std::sqrt(dot(g, g)) > tolerance && descent < limit;
       g = gradient(x), ++descent) {
    Vector p(g);
    for (double &v : p)
      v = -v;
    lineSearch(x, p, g);
  }
  std::printf("gradient descent: %6d iterations, f = %.3e, |g| = %.1e%s\n",
              descent, rosenbrock(x.data(), N),
              std::sqrt(dot(gradient(x), gradient(x))),
              descent == limit ? " (stopped at the limit)" : "");

  x = start();
  int newton = 0, products = 0;
  for (Vector g = gradient(x);
       std::sqrt(dot(g, g)) > tolerance && newton < 1000;
       g = gradient(x), ++newton)
    lineSearch(x, newtonDirection(x, g, products), g);
  std::printf("Newton-CG:        %6d iterations, f = %.3e, |g| = %.1e, "
              "%d Hessian-vector products\n",
              newton, rosenbrock(x.data(), N),
              std::sqrt(dot(gradient(x), gradient(x))), products);
  double distance = 0;
  for (double v : x)
    distance = std::fmax(distance, std::fabs(v - 1));
  std::printf("Newton-CG minimum: max |x_i - 1| = %.1e\n", distance);
  return newton < 1000 && distance < 1e-6 ? 0 : 1;
}
