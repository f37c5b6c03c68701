// MPI communication inside differentiated functions (slope/mpi.hpp), run
// as real processes: `mpirun -np 2` and `-np 4` (tests/mpi/run.sh). Each
// rank owns a slice of the data. Every gradient is compared with the
// gradient of the serial program on all ranks' data and with central
// differences of the distributed function, every tangent with the
// gradient (the dot-product test).
//
// The objective is returned on rank 0 only (0 elsewhere): a value every
// rank returned would count once per rank in the reverse sweep's seed.
#include <slope/slope.hpp>

#include <mpi.h>
#include <slope/mpi.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int Local = 5; // elements per rank
constexpr int Steps = 3;
constexpr double Rate = 0.2;

int rankOf() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int sizeOf() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// sum over ranks of sum_i w_i x_i^2, by MPI_Allreduce.
double dot(const double *x, int n) {
  double local = 0;
  for (int i = 0; i < n; ++i)
    local += (1 + 0.1 * i) * x[i] * x[i];
  double total;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0 ? total : 0.0;
}

/// One explicit heat step on u[1..n] with ghosts u[0] and u[n+1].
void heatStep(const double *u, double *next, int n) {
  for (int i = 1; i <= n; ++i)
    next[i] = u[i] + Rate * (u[i - 1] - 2 * u[i] + u[i + 1]) -
              0.05 * u[i] * u[i] * u[i];
}

/// One step in place (scratch holds the new values meanwhile).
void advance(double *u, double *scratch, int n) {
  heatStep(u, scratch, n);
  for (int i = 1; i <= n; ++i)
    u[i] = scratch[i];
}

/// sum u^2 over this rank's slice.
double sliceEnergy(const double *u, int n) {
  double local = 0;
  for (int i = 1; i <= n; ++i)
    local += u[i] * u[i];
  return local;
}

/// Steps of the heat equation on a slice, ghosts exchanged with
/// MPI_Sendrecv (ends held at zero), then sum u^2 over all ranks.
double heatSendrecv(double *u, double *scratch, int n) {
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
    advance(u, scratch, n);
  }
  double local = sliceEnergy(u, n), total = 0;
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return rank == 0 ? total : 0.0;
}

/// The same with blocking MPI_Send and MPI_Recv, even ranks sending first.
double heatSendRecv(double *u, double *scratch, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int s = 0; s < Steps; ++s) {
    u[0] = 0;
    u[n + 1] = 0;
    for (int phase = 0; phase < 2; ++phase) {
      if ((rank + phase) % 2 == 0) {
        if (rank > 0)
          MPI_Send(&u[1], 1, MPI_DOUBLE, rank - 1, 7, MPI_COMM_WORLD);
        if (rank < size - 1)
          MPI_Send(&u[n], 1, MPI_DOUBLE, rank + 1, 8, MPI_COMM_WORLD);
      } else {
        if (rank < size - 1)
          MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, rank + 1, 7, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
        if (rank > 0)
          MPI_Recv(&u[0], 1, MPI_DOUBLE, rank - 1, 8, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      }
    }
    advance(u, scratch, n);
  }
  double local = sliceEnergy(u, n), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return rank == 0 ? total : 0.0;
}

/// The same with non-blocking exchanges: receives posted first, then
/// sends, completed by MPI_Waitall (ghosts) and MPI_Wait.
double heatNonBlocking(double *u, double *scratch, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int s = 0; s < Steps; ++s) {
    MPI_Request requests[3], last;
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &last);
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    MPI_Wait(&last, MPI_STATUS_IGNORE);
    advance(u, scratch, n);
  }
  double local = sliceEnergy(u, n), total = 0;
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return rank == 0 ? total : 0.0;
}

/// The serial program: the whole array with zero ends.
double heatSerial(double *u, double *scratch, int n) {
  for (int s = 0; s < Steps; ++s) {
    u[0] = 0;
    u[n + 1] = 0;
    advance(u, scratch, n);
  }
  double total = 0;
  for (int i = 1; i <= n; ++i)
    total += u[i] * u[i];
  return total;
}

/// Parameters broadcast from rank 0, a local model on each rank, the
/// misfits summed to rank 0 with MPI_Reduce in place.
double pipeline(double *params, const double *x, int n) {
  MPI_Bcast(params, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double misfit = 0;
  for (int i = 0; i < n; ++i) {
    double model = params[0] + params[1] * x[i] + params[2] * x[i] * x[i];
    misfit += std::sin(model) * x[i];
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &misfit, 1, MPI_DOUBLE, MPI_SUM, 0,
               MPI_COMM_WORLD);
  else
    MPI_Reduce(&misfit, nullptr, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return rank == 0 ? misfit : 0.0;
}

/// Blocks of rank 0's array scattered, transformed on each rank, gathered
/// by every rank, combined with a neighbour's block, and gathered at rank
/// 0 in place.
double scatterGather(double *global, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double local[8], all[64], out[64];
  MPI_Scatter(global, n, MPI_DOUBLE, local, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n; ++i)
    local[i] = std::sin(local[i]) + local[i] * local[i];
  MPI_Allgather(local, n, MPI_DOUBLE, all, n, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < n; ++i)
    out[rank * n + i] = local[i] * all[(rank * n + i + 1) % (n * size)];
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, n, MPI_DOUBLE, out, n, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
  else
    MPI_Gather(&out[rank * n], n, MPI_DOUBLE, nullptr, n, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
  double total = 0;
  for (int i = 0; rank == 0 && i < n * size; ++i)
    total += (1 + 0.1 * i) * out[i] * out[i];
  return total;
}

/// Extremes over all ranks: MPI_Allreduce with MPI_MAX (in place, three
/// elements) and MPI_Reduce with MPI_MIN; each element's derivative goes
/// to the rank that held the extremum. Products with MPI_PROD, one of
/// them through a zero factor.
double extremes(const double *x, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double hi[3] = {-1e300, -1e300, -1e300}, lo = 1e300, least;
  for (int i = 0; i < n; ++i) {
    double v = x[i] * (1 + 0.01 * (i + n * rank));
    hi[i % 3] = std::fmax(hi[i % 3], v * v);
    lo = std::fmin(lo, v);
  }
  MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Reduce(&lo, &least, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  // Products: one factor per rank, and one that is zero on rank 1.
  double factors[2] = {1 + 0.1 * x[0], rank == 1 ? 0.0 : 0.5 + x[1]};
  double products[2], reduced;
  MPI_Allreduce(factors, products, 2, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
  MPI_Reduce(&factors[0], &reduced, 1, MPI_DOUBLE, MPI_PROD, 0, MPI_COMM_WORLD);
  return rank == 0 ? hi[0] + 2 * hi[1] + 3 * hi[2] - least + products[0] +
                         products[1] + 0.5 * reduced
                   : 0.0;
}

constexpr int CgIterations = 4;

/// y = A x for the 1-D Laplacian (2 on the diagonal, -1 beside it) plus a
/// diagonal shift, on this rank's rows; x has ghosts x[0] and x[n+1].
void laplacian(double *x, double *y, int n, int left, int right) {
  MPI_Sendrecv(&x[1], 1, MPI_DOUBLE, left, 4, &x[n + 1], 1, MPI_DOUBLE, right,
               4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&x[n], 1, MPI_DOUBLE, right, 5, &x[0], 1, MPI_DOUBLE, left, 5,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 1; i <= n; ++i)
    y[i] = 2.5 * x[i] - x[i - 1] - x[i + 1];
}

double globalDot(const double *a, const double *b, int n) {
  double local = 0, total;
  for (int i = 1; i <= n; ++i)
    local += a[i] * b[i];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/// A few conjugate-gradient iterations for A x = b from x = 0, then the
/// weighted sum of x: its gradient with respect to b is A^-1 w, reached
/// only approximately after few iterations, through every dot product.
double conjugateGradient(const double *b, double *work, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  // work holds x, r, p and A p, each with ghost cells.
  double *x = work, *r = work + (n + 2), *p = work + 2 * (n + 2),
         *q = work + 3 * (n + 2);
  for (int i = 0; i < 4 * (n + 2); ++i)
    work[i] = 0;
  for (int i = 1; i <= n; ++i)
    r[i] = p[i] = b[i];
  double rr = globalDot(r, r, n);
  for (int k = 0; k < CgIterations; ++k) {
    laplacian(p, q, n, left, right);
    double alpha = rr / globalDot(p, q, n);
    for (int i = 1; i <= n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double next = globalDot(r, r, n);
    for (int i = 1; i <= n; ++i)
      p[i] = r[i] + next / rr * p[i];
    rr = next;
  }
  double local = 0, total = 0;
  for (int i = 1; i <= n; ++i)
    local += (1 + 0.1 * (i + n * rank)) * x[i];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return rank == 0 ? total : 0.0;
}

// The serial programs of the pipelines: every rank's data in one array of
// `size` slices, one process.

double pipelineSerial(const double *params, const double *x, int total) {
  double misfit = 0;
  for (int i = 0; i < total; ++i) {
    double model = params[0] + params[1] * x[i] + params[2] * x[i] * x[i];
    misfit += std::sin(model) * x[i];
  }
  return misfit;
}

double scatterGatherSerial(const double *global, int total) {
  double local[64], out[64];
  for (int k = 0; k < total; ++k)
    local[k] = std::sin(global[k]) + global[k] * global[k];
  for (int k = 0; k < total; ++k)
    out[k] = local[k] * local[(k + 1) % total];
  double sum = 0;
  for (int k = 0; k < total; ++k)
    sum += (1 + 0.1 * k) * out[k] * out[k];
  return sum;
}

double extremesSerial(const double *x, int n, int size) {
  double hi[3] = {-1e300, -1e300, -1e300}, lo = 1e300, p0 = 1, p1 = 1;
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < n; ++i) {
      double v = x[r * n + i] * (1 + 0.01 * (i + n * r));
      hi[i % 3] = std::fmax(hi[i % 3], v * v);
      lo = std::fmin(lo, v);
    }
    p0 *= 1 + 0.1 * x[r * n];
    p1 *= r == 1 ? 0.0 : 0.5 + x[r * n + 1];
  }
  return hi[0] + 2 * hi[1] + 3 * hi[2] - lo + p0 + p1 + 0.5 * p0;
}

int Failures = 0;

void expectNear(const char *test, const char *what, int index, double got,
                double want, double tolerance) {
  if (std::fabs(got - want) <= tolerance * (1 + std::fabs(want)))
    return;
  ++Failures;
  std::printf("[rank %d] %s: %s[%d] = %.15g, expected %.15g\n", rankOf(), test,
              what, index, got, want);
}

double everywhere(double value) {
  double total;
  MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/// Central differences of the distributed objective \p f with respect to
/// each rank's \p x (every rank takes part in every evaluation), compared
/// with this rank's \p gradient.
template <class F>
void checkAgainstDifferences(const char *test, F f, std::vector<double> x,
                             const std::vector<double> &gradient, int first,
                             int count) {
  for (int owner = 0; owner < sizeOf(); ++owner)
    for (int k = first; k < first + count; ++k) {
      double h = 1e-6, old = x[k];
      bool mine = owner == rankOf();
      if (mine)
        x[k] = old + h;
      double up = everywhere(f(x));
      if (mine)
        x[k] = old - h;
      double down = everywhere(f(x));
      if (mine) {
        x[k] = old;
        expectNear(test, "gradient", k, gradient[k], (up - down) / (2 * h),
                   1e-6);
      }
    }
}

/// This rank's \p gradient against its slice of the serial program's.
void expectSlice(const char *test, const std::vector<double> &gradient,
                 const std::vector<double> &serial, int offset) {
  for (size_t i = 0; i < gradient.size(); ++i)
    expectNear(test, "gradient vs serial", int(i), gradient[i],
               serial[offset + i], 1e-10);
}

/// The tangent along \p direction equals the gradient's dot product with
/// it, summed over ranks.
void checkTangent(const char *test, double tangent,
                  const std::vector<double> &gradient,
                  const std::vector<double> &direction) {
  double local = 0;
  for (size_t i = 0; i < gradient.size(); ++i)
    local += gradient[i] * direction[i];
  double want = everywhere(local);
  expectNear(test, "tangent", 0, everywhere(tangent), want, 1e-10);
}

std::vector<double> slice(int size, int offset) {
  std::vector<double> v(size);
  for (int i = 0; i < size; ++i)
    v[i] = 0.4 + 0.3 * std::sin(0.7 * (i + offset));
  return v;
}

void testDot() {
  std::vector<double> x = slice(Local, Local * rankOf()), dx(Local, 0.0);
  slope::grad<dot>(slope::dup((const double *)x.data(), dx.data()), Local);
  for (int i = 0; i < Local; ++i)
    expectNear("dot", "gradient", i, dx[i], 2 * (1 + 0.1 * i) * x[i], 1e-13);
  checkAgainstDifferences(
      "dot", [&](std::vector<double> v) { return dot(v.data(), Local); }, x, dx,
      0, Local);
  std::vector<double> t = slice(Local, 3 + rankOf());
  double tangent = slope::derivative<dot>(
      slope::dup((const double *)x.data(), t.data()), Local);
  checkTangent("dot", tangent, dx, t);
}

template <double (*Heat)(double *, double *, int)>
void testHeat(const char *test) {
  int n = Local, rank = rankOf(), size = sizeOf();
  // This rank's slice with ghosts, and the serial problem's gradient.
  std::vector<double> u(n + 2, 0.0), du(n + 2, 0.0), s(n + 2), ds(n + 2, 0.0);
  std::vector<double> whole = slice(n * size + 2, 0);
  whole[0] = whole[n * size + 1] = 0;
  for (int i = 1; i <= n; ++i)
    u[i] = whole[rank * n + i];
  std::vector<double> wholeCopy = whole, dwhole(n * size + 2, 0.0),
                      wscratch(n * size + 2), dwscratch(n * size + 2, 0.0);
  slope::grad<heatSerial>(slope::dup(wholeCopy.data(), dwhole.data()),
                          slope::dup(wscratch.data(), dwscratch.data()),
                          n * size);
  std::vector<double> u0 = u;
  slope::grad<Heat>(slope::dup(u.data(), du.data()),
                    slope::dup(s.data(), ds.data()), n);
  for (int i = 1; i <= n; ++i)
    expectNear(test, "gradient vs serial", i, du[i], dwhole[rank * n + i],
               1e-12);
  checkAgainstDifferences(
      test,
      [&](std::vector<double> v) {
        std::vector<double> sc(n + 2);
        return Heat(v.data(), sc.data(), n);
      },
      u0, du, 1, n);
  std::vector<double> t = slice(n + 2, 11 + rank), tu = u0, ts(n + 2, 0.0),
                      sc(n + 2);
  t[0] = t[n + 1] = 0;
  std::vector<double> direction = t; // t receives the tangents of u's output
  double tangent = slope::derivative<Heat>(slope::dup(tu.data(), t.data()),
                                           slope::dup(sc.data(), ts.data()), n);
  std::vector<double> interior = du;
  interior[0] = interior[n + 1] = 0;
  checkTangent(test, tangent, interior, direction);
}

void testPipeline() {
  int n = Local;
  std::vector<double> p = {0.3, -0.2, 0.5}, dp(3, 0.0);
  std::vector<double> x = slice(n, 5 * rankOf()), dx(n, 0.0);
  if (rankOf() != 0)
    p.assign(3, 9.0); // overwritten by the broadcast
  std::vector<double> p0 = p;
  slope::grad<pipeline>(slope::dup(p.data(), dp.data()),
                        slope::dup((const double *)x.data(), dx.data()), n);
  std::vector<double> wholeX = slice(n * sizeOf(), 0), dwholeX(n * sizeOf()),
                      serialP = {0.3, -0.2, 0.5}, dserialP(3, 0.0);
  slope::grad<pipelineSerial>(
      slope::dup((const double *)serialP.data(), dserialP.data()),
      slope::dup((const double *)wholeX.data(), dwholeX.data()), n * sizeOf());
  expectSlice("pipeline x", dx, dwholeX, n * rankOf());
  // The broadcast's adjoint gathers at rank 0: other ranks' copies of the
  // parameters get none.
  expectSlice("pipeline params", dp,
              rankOf() == 0 ? dserialP : std::vector<double>(3, 0.0), 0);
  checkAgainstDifferences(
      "pipeline x",
      [&](std::vector<double> v) {
        std::vector<double> q = p0;
        return pipeline(q.data(), v.data(), n);
      },
      x, dx, 0, n);
  // (Other ranks' parameters are overwritten: differences of 0 there.)
  checkAgainstDifferences(
      "pipeline params",
      [&](std::vector<double> q) { return pipeline(q.data(), x.data(), n); },
      p0, dp, 0, 3);
  std::vector<double> tp = {0.1, 0.2, -0.3}, tx = slice(n, 2 + rankOf()),
                      q = p0;
  std::vector<double> dir = tp; // tp receives the parameters' tangents
  double tangent = slope::derivative<pipeline>(
      slope::dup(q.data(), tp.data()),
      slope::dup((const double *)x.data(), tx.data()), n);
  std::vector<double> all = dp;
  all.insert(all.end(), dx.begin(), dx.end());
  dir.insert(dir.end(), tx.begin(), tx.end());
  if (rankOf() != 0)
    for (int k = 0; k < 3; ++k)
      dir[k] = 0; // other ranks' parameters are overwritten
  checkTangent("pipeline", tangent, all, dir);
}

void testScatterGather() {
  int n = Local, all = Local * sizeOf();
  // Significant on rank 0 only: other ranks' copies get no adjoint.
  std::vector<double> x = slice(all, rankOf() == 0 ? 0 : 100), dx(all, 0.0);
  std::vector<double> x0 = x;
  slope::grad<scatterGather>(slope::dup(x.data(), dx.data()), n);
  std::vector<double> global = slice(all, 0), dglobal(all, 0.0);
  slope::grad<scatterGatherSerial>(
      slope::dup((const double *)global.data(), dglobal.data()), all);
  expectSlice("scatter/gather", dx,
              rankOf() == 0 ? dglobal : std::vector<double>(all, 0.0), 0);
  checkAgainstDifferences(
      "scatter/gather",
      [&](std::vector<double> v) { return scatterGather(v.data(), n); }, x0, dx,
      0, all);
  std::vector<double> t = slice(all, 7), direction = t, tx = x0;
  double tangent =
      slope::derivative<scatterGather>(slope::dup(tx.data(), t.data()), n);
  checkTangent("scatter/gather", tangent, dx, direction);
}

void testExtremes() {
  std::vector<double> x = slice(Local, Local * rankOf()), dx(Local, 0.0);
  slope::grad<extremes>(slope::dup((const double *)x.data(), dx.data()), Local);
  std::vector<double> whole = slice(Local * sizeOf(), 0),
                      dwhole(Local * sizeOf(), 0.0);
  slope::grad<extremesSerial>(
      slope::dup((const double *)whole.data(), dwhole.data()), Local, sizeOf());
  expectSlice("extremes", dx, dwhole, Local * rankOf());
  checkAgainstDifferences(
      "extremes",
      [&](std::vector<double> v) { return extremes(v.data(), Local); }, x, dx,
      0, Local);
  std::vector<double> t = slice(Local, 3 + rankOf());
  double tangent = slope::derivative<extremes>(
      slope::dup((const double *)x.data(), t.data()), Local);
  checkTangent("extremes", tangent, dx, t);
}

/// The serial program's conjugate gradient on the whole vector.
double conjugateGradientSerial(const double *b, double *work, int n) {
  double *x = work, *r = work + (n + 2), *p = work + 2 * (n + 2),
         *q = work + 3 * (n + 2);
  for (int i = 0; i < 4 * (n + 2); ++i)
    work[i] = 0;
  for (int i = 1; i <= n; ++i)
    r[i] = p[i] = b[i];
  auto dot = [&](const double *u, const double *v) {
    double d = 0;
    for (int i = 1; i <= n; ++i)
      d += u[i] * v[i];
    return d;
  };
  double rr = dot(r, r);
  for (int k = 0; k < CgIterations; ++k) {
    for (int i = 1; i <= n; ++i)
      q[i] = 2.5 * p[i] - p[i - 1] - p[i + 1];
    double alpha = rr / dot(p, q);
    for (int i = 1; i <= n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double next = dot(r, r);
    for (int i = 1; i <= n; ++i)
      p[i] = r[i] + next / rr * p[i];
    rr = next;
  }
  double total = 0;
  for (int i = 1; i <= n; ++i)
    total += (1 + 0.1 * i) * x[i];
  return total;
}

void testConjugateGradient() {
  int n = Local, rank = rankOf(), size = sizeOf();
  std::vector<double> whole = slice(n * size + 2, 3);
  std::vector<double> b(n + 2, 0.0), db(n + 2, 0.0), work(4 * (n + 2)),
      dwork(4 * (n + 2), 0.0);
  for (int i = 1; i <= n; ++i)
    b[i] = whole[rank * n + i];
  slope::grad<conjugateGradient>(
      slope::dup((const double *)b.data(), db.data()),
      slope::dup(work.data(), dwork.data()), n);
  int all = n * size;
  std::vector<double> wholeB(all + 2, 0.0), dwhole(all + 2, 0.0),
      wholeWork(4 * (all + 2)), dwholeWork(4 * (all + 2), 0.0);
  for (int i = 1; i <= all; ++i)
    wholeB[i] = whole[i];
  slope::grad<conjugateGradientSerial>(
      slope::dup((const double *)wholeB.data(), dwhole.data()),
      slope::dup(wholeWork.data(), dwholeWork.data()), all);
  for (int i = 1; i <= n; ++i)
    expectNear("conjugate gradient", "gradient vs serial", i, db[i],
               dwhole[rank * n + i], 1e-10);
  checkAgainstDifferences(
      "conjugate gradient",
      [&](std::vector<double> v) {
        std::vector<double> w(4 * (n + 2));
        return conjugateGradient(v.data(), w.data(), n);
      },
      b, db, 1, n);
  std::vector<double> t = slice(n + 2, 17 + rank), direction = t,
                      w(4 * (n + 2)), dw(4 * (n + 2), 0.0);
  double tangent = slope::derivative<conjugateGradient>(
      slope::dup((const double *)b.data(), t.data()),
      slope::dup(w.data(), dw.data()), n);
  direction[0] = direction[n + 1] = 0;
  std::vector<double> interior = db;
  interior[0] = interior[n + 1] = 0;
  checkTangent("conjugate gradient", tangent, interior, direction);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  testDot();
  testHeat<heatSendrecv>("heat sendrecv");
  testHeat<heatSendRecv>("heat send/recv");
  testHeat<heatNonBlocking>("heat isend/irecv");
  testPipeline();
  testScatterGather();
  testExtremes();
  testConjugateGradient();
  int failures = int(everywhere(Failures));
  if (rankOf() == 0)
    std::printf("%s: %d ranks, %d failed checks\n",
                failures ? "FAILED" : "PASSED", sizeOf(), failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
