// MPI calls that pass differentiated data need a rule: one slope/mpi.hpp
// does not give (a gather with counts per rank, for now) and any MPI call in a file that does
// not include it are errors naming the call and saying what to do. With
// the header, the same send compiles.
// REQUIRES: mpi
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -I%mpi_include -DOMPI_SKIP_MPICXX -DGATHER -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not %clangxx -std=c++17 -O2 -g -fplugin=%slope_plugin -I%include -I%mpi_include -DOMPI_SKIP_MPICXX -DNOHEADER -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOHEADER
// RUN: %clangxx -std=c++17 -O2 -fplugin=%slope_plugin -I%include -I%mpi_include -DOMPI_SKIP_MPICXX -c %s -o /dev/null
#include <slope/slope.hpp>

#include <mpi.h>
#ifndef NOHEADER
#include <slope/mpi.hpp>
#endif

double exchange(double *x, int n) {
#ifdef GATHER
  double all[64];
  int counts[2] = {n, n}, offsets[2] = {0, n};
  // GATHER: error: slope: cannot differentiate call to 'MPI_Gatherv' {{.*}}: a differentiated pointer is passed to a function Slope cannot see into; <slope/mpi.hpp> gives rules to MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Gather, MPI_Scatter and MPI_Allgather: include it, or keep differentiated data out of this call
  // GATHER: mpi-without-rule.cpp:[[@LINE+1]]:3: note: the construct Slope cannot differentiate is here
  MPI_Gatherv(x, n, MPI_DOUBLE, all, counts, offsets, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  x[0] += all[0];
#else
  // NOHEADER: error: slope: cannot differentiate call to 'MPI_Send' {{.*}}: a differentiated pointer is passed to a function Slope cannot see into; <slope/mpi.hpp> gives rules
  // NOHEADER: mpi-without-rule.cpp:[[@LINE+1]]:3: note: the construct Slope cannot differentiate is here
  MPI_Send(x, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
#endif
  return x[0] * x[0];
}

void gradient(double *x, double *dx, int n) {
  slope::grad<exchange>(slope::dup(x, dx), n);
}
