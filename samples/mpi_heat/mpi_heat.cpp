// The gradient of a distributed 1-D heat simulation: each MPI rank owns a
// slice of the rod, exchanges one ghost cell with each neighbour per step
// (MPI_Sendrecv), updates its slice with an OpenMP loop, and the energy of
// the final state is summed on rank 0. slope::grad differentiates all of
// it: the reverse sweep sends the ghosts' adjoints back the way the
// values came, and each rank's OpenMP loop runs in reverse in parallel.
//
// Build and run (from the repository root, after the README's build):
//   clang++-19 -O2 -fopenmp -fplugin=build/lib/SlopeClang.so -Iinclude \
//     $(mpicc --showme:compile) -DOMPI_SKIP_MPICXX \
//     samples/mpi_heat/mpi_heat.cpp $(mpicc --showme:link) -o mpi_heat
//   OMP_NUM_THREADS=2 mpirun -np 2 ./mpi_heat
// (as root, Open MPI also wants OMPI_ALLOW_RUN_AS_ROOT=1 and
// OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment).
#include <slope/slope.hpp>

#include <mpi.h>
#include <slope/mpi.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int Cells = 1000; // per rank
constexpr int Steps = 50;

// u[1..n] is this rank's slice, u[0] and u[n+1] its ghost cells.
double energyAfterSteps(double *u, double *next, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int s = 0; s < Steps; ++s) {
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp parallel for
    for (int i = 1; i <= n; ++i)
      next[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]) -
                0.01 * u[i] * u[i] * u[i];
    for (int i = 1; i <= n; ++i)
      u[i] = next[i];
  }
  double local = 0, total = 0;
  for (int i = 1; i <= n; ++i)
    local += u[i] * u[i];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  // Returned on rank 0 only: every rank's grad seeds its own result.
  return rank == 0 ? total : 0.0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto initial = [&] {
    std::vector<double> u(Cells + 2, 0.0);
    for (int i = 1; i <= Cells; ++i)
      u[i] = std::sin(3.14159265358979 * (rank * Cells + i) / (size * Cells));
    return u;
  };

  std::vector<double> u = initial(), du(Cells + 2, 0.0), next(Cells + 2),
                      dnext(Cells + 2, 0.0);
  double energy = slope::value_and_grad<energyAfterSteps>(
                      slope::dup(u.data(), du.data()),
                      slope::dup(next.data(), dnext.data()), Cells)
                      .value;

  // Check one element owned by the last rank against central differences.
  int owner = size - 1, cell = Cells / 2;
  double h = 1e-6, sides[2];
  for (int side = 0; side < 2; ++side) {
    std::vector<double> v = initial(), scratch(Cells + 2);
    if (rank == owner)
      v[cell] += side == 0 ? h : -h;
    sides[side] = energyAfterSteps(v.data(), scratch.data(), Cells);
  }
  double difference = (sides[0] - sides[1]) / (2 * h);
  double norm = 0, total = 0;
  for (int i = 1; i <= Cells; ++i)
    norm += du[i] * du[i];
  MPI_Reduce(&norm, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double mine = rank == owner ? du[cell] : 0.0, adjoint = 0;
  MPI_Reduce(&mine, &adjoint, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%d ranks x %d cells, %d steps\n", size, Cells, Steps);
    std::printf("energy                 = %.10f\n", energy);
    std::printf("|d energy / d u0|      = %.10f\n", std::sqrt(total));
    std::printf("d energy / d u0[cell]  = %.8f (slope::grad)\n", adjoint);
    std::printf("                       = %.8f (central differences)\n",
                difference);
  }
  MPI_Finalize();
  bool agree =
      std::fabs(adjoint - difference) < 1e-6 * (1 + std::fabs(adjoint));
  return rank != 0 || agree ? 0 : 1;
}
