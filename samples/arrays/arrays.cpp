// Arrays and a void kernel: y = A·x, differentiated in reverse mode with
// output seeds in y's shadow (here: ∂(y₀ + 2·y₁)/∂A and ∂/∂x), and in
// forward mode along a direction of x.
#include <slope/slope.hpp>

#include <cstdio>

void matvec(const double *a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

int main() {
  const int n = 2;
  double a[4] = {1, 2, 3, 4}, x[2] = {0.5, -1}, y[2];
  double da[4] = {}, dx[2] = {}, dy[2] = {1, 2}; // seeds: y₀ + 2·y₁
  slope::grad<matvec>(slope::dup(a, da, 4), slope::dup(x, dx, 2),
                      slope::dup(y, dy, 2), n);
  std::printf("y = (%g, %g)\n", y[0], y[1]);
  std::printf("d(y0 + 2 y1)/dx = (%g, %g)\n", dx[0], dx[1]);
  std::printf("d(y0 + 2 y1)/dA = (%g, %g, %g, %g)\n", da[0], da[1], da[2],
              da[3]);

  double tx[2] = {1, 0}, ta[4] = {}, ty[2] = {};
  slope::derivative<matvec>(slope::dup(a, ta, 4), slope::dup(x, tx, 2),
                            slope::dup(y, ty, 2), n);
  std::printf("dy/dx0 = (%g, %g)\n", ty[0], ty[1]);
  // A's first column, and Aᵀ·(1, 2) = (7, 10).
  return dx[0] == 7 && dx[1] == 10 && ty[0] == 1 && ty[1] == 3 ? 0 : 1;
}
