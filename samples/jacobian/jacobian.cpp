// A Jacobian in one call: polar to Cartesian coordinates, p = (r, θ) →
// (r·cos θ, r·sin θ). Vector reverse mode gives its rows (one lane per
// output seed), vector forward mode its columns (one lane per direction);
// either way the function runs once.
#include <slope/slope.hpp>

#include <cmath>
#include <cstdio>

void toCartesian(const double *p, double *xy) {
  xy[0] = p[0] * std::cos(p[1]);
  xy[1] = p[0] * std::sin(p[1]);
}

int main() {
  double p[2] = {2.0, 0.5}, xy[2];

  // Rows: lane k seeds output k and collects ∂xy_k/∂p.
  double row0[2] = {}, row1[2] = {}, e0[2] = {1, 0}, e1[2] = {0, 1};
  slope::grad<toCartesian>(slope::dup(p, slope::lanes(row0, row1)),
                           slope::dup(xy, slope::lanes(e0, e1)));

  // Columns: lane k moves input k and collects ∂xy/∂p_k.
  double d0[2] = {1, 0}, d1[2] = {0, 1}, col0[2], col1[2];
  slope::derivative<toCartesian>(slope::dup(p, slope::lanes(d0, d1)),
                                 slope::dup(xy, slope::lanes(col0, col1)));

  std::printf("J (reverse) = [%8.5f %8.5f; %8.5f %8.5f]\n", row0[0], row0[1],
              row1[0], row1[1]);
  std::printf("J (forward) = [%8.5f %8.5f; %8.5f %8.5f]\n", col0[0], col1[0],
              col0[1], col1[1]);
  // [cos θ, -r sin θ; sin θ, r cos θ]
  double expected[2][2] = {{std::cos(p[1]), -p[0] * std::sin(p[1])},
                           {std::sin(p[1]), p[0] * std::cos(p[1])}};
  double rows[2][2] = {{row0[0], row0[1]}, {row1[0], row1[1]}};
  double cols[2][2] = {{col0[0], col1[0]}, {col0[1], col1[1]}};
  double worst = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      worst = std::fmax(worst, std::fabs(rows[i][j] - expected[i][j]) +
                                   std::fabs(cols[i][j] - expected[i][j]));
  return worst < 1e-14 ? 0 : 1;
}
