// OpenMP kernels differentiated by Slope: primal and gradient times with
// teams of 1 and 2 threads, the gradient's speed-up from 1 to 2 threads
// and grad/primal per team size (issue 20's targets: speed-up >= 1.6, and
// grad/primal at 2 threads within 20% of the 1-thread ratio). Each
// gradient is first checked against the one-thread gradient.
//
//   openmp_bench [--quick]
#include <slope/slope.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

namespace {

// Potential energy of N bodies, all pairs, parallel over the first body.
double nbody(const double *pos, int n) {
  double e = 0;
#pragma omp parallel for reduction(+ : e) schedule(static)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (j == i)
        continue;
      double dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1],
             dz = pos[3 * i + 2] - pos[3 * j + 2];
      e += 0.5 / std::sqrt(dx * dx + dy * dy + dz * dz + 0.01);
    }
  return e;
}

// Explicit 2-D heat steps between two grids, rows split among threads.
double heat(double *u, double *v, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        v[i * n + j] =
            u[i * n + j] +
            0.1 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                   u[i * n + j + 1] - 4 * u[i * n + j]);
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        u[i * n + j] = v[i * n + j] * (1 - 0.01 * v[i * n + j]);
  }
  double e = 0;
  for (int k = 0; k < n * n; ++k)
    e += u[k] * u[k];
  return e;
}

double seconds(const std::function<void()> &Run, int Repeats) {
  double Best = 1e300;
  for (int R = 0; R < Repeats; ++R) {
    auto Start = std::chrono::steady_clock::now();
    Run();
    Best = std::min(Best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Start)
                              .count());
  }
  return Best;
}

struct Row {
  const char *Name;
  std::function<void()> Primal, Gradient;
  /// Where Gradient leaves the gradient.
  const std::vector<double> *Result;
};

bool close(const std::vector<double> &A, const std::vector<double> &B) {
  for (size_t I = 0; I < A.size(); ++I)
    if (std::fabs(A[I] - B[I]) > 1e-9 * (1 + std::fabs(B[I])))
      return false;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  bool Quick = argc > 1 && !std::strcmp(argv[1], "--quick");
  int Bodies = Quick ? 64 : 2000, Grid = Quick ? 16 : 512,
      Steps = Quick ? 2 : 10, Repeats = Quick ? 1 : 5;

  std::vector<double> Pos(3 * Bodies), DPos(3 * Bodies);
  for (int K = 0; K < 3 * Bodies; ++K)
    Pos[K] = std::sin(1.3 * K) + 0.001 * K;
  std::vector<double> U0(Grid * Grid), U, V(Grid * Grid), DU, DV(Grid * Grid);
  for (int K = 0; K < Grid * Grid; ++K)
    U0[K] = 0.5 + 0.4 * std::sin(0.01 * K);

  Row Rows[] = {
      {"nbody",
       [&] {
         volatile double E = nbody(Pos.data(), Bodies);
         (void)E;
       },
       [&] {
         std::fill(DPos.begin(), DPos.end(), 0.0);
         slope::grad<nbody>(slope::dup((const double *)Pos.data(), DPos.data()),
                            Bodies);
       },
       &DPos},
      {"heat2d",
       [&] {
         U = U0;
         volatile double E = heat(U.data(), V.data(), Grid, Steps);
         (void)E;
       },
       [&] {
         U = U0;
         DU.assign(Grid * Grid, 0.0);
         std::fill(DV.begin(), DV.end(), 0.0);
         slope::grad<heat>(slope::dup(U.data(), DU.data()),
                           slope::dup(V.data(), DV.data()), Grid, Steps);
       },
       &DU},
  };

  std::printf("%-8s %12s %12s %12s %12s %11s %11s %9s\n", "kernel", "primal 1t",
              "grad 1t", "primal 2t", "grad 2t", "g/p 1t", "g/p 2t",
              "speed-up");
  int Status = 0;
  for (Row &R : Rows) {
    omp_set_num_threads(1);
    R.Gradient();
    std::vector<double> Serial = *R.Result;
    omp_set_num_threads(2);
    R.Gradient();
    if (!close(*R.Result, Serial)) {
      std::printf("%s: the 2-thread gradient differs from the 1-thread one\n",
                  R.Name);
      Status = 1;
    }
    double Time[2][2];
    for (int Team : {1, 2}) {
      omp_set_num_threads(Team);
      Time[Team - 1][0] = seconds(R.Primal, Repeats);
      Time[Team - 1][1] = seconds(R.Gradient, Repeats);
    }
    std::printf("%-8s %12.3e %12.3e %12.3e %12.3e %11.2f %11.2f %9.2f\n",
                R.Name, Time[0][0], Time[0][1], Time[1][0], Time[1][1],
                Time[0][1] / Time[0][0], Time[1][1] / Time[1][0],
                Time[0][1] / Time[1][1]);
  }
  return Status;
}
