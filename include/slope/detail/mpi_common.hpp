// What the MPI rules share: datatypes, buffers of adjoints, results.
// Part of <slope/mpi.hpp>; include that header.
#ifndef SLOPE_DETAIL_MPI_COMMON_HPP
#define SLOPE_DETAIL_MPI_COMMON_HPP

#include <mpi.h>
#include <slope/wrappers.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace slope::mpi_rules {

/// The floating-point type an MPI datatype holds, as its size in bytes:
/// 8 (MPI_DOUBLE), 4 (MPI_FLOAT), or 0 (no derivatives).
inline int activeBytes(MPI_Datatype type) {
  if (type == MPI_DOUBLE)
    return 8;
  if (type == MPI_FLOAT)
    return 4;
  return 0;
}

[[noreturn]] inline void unsupported(const char *what) {
  std::fprintf(stderr, "slope: %s\n", what);
  std::abort();
}

/// shadow[i] += more[i] for count elements of the datatype.
inline void addInto(void *shadow, const void *more, int count, int bytes) {
  if (bytes == 8)
    for (int i = 0; i < count; ++i)
      static_cast<double *>(shadow)[i] += static_cast<const double *>(more)[i];
  else
    for (int i = 0; i < count; ++i)
      static_cast<float *>(shadow)[i] += static_cast<const float *>(more)[i];
}

inline void clear(void *shadow, int count, int bytes) {
  if (shadow)
    for (int i = 0; i < count * bytes; ++i)
      static_cast<unsigned char *>(shadow)[i] = 0;
}

/// A buffer for count elements of the datatype (zeroed).
inline std::vector<double> scratch(int count, int bytes) {
  return std::vector<double>((size_t(count) * bytes + 7) / 8, 0.0);
}

/// The start of block \p k of a buffer of blocks of \p count elements.
inline void *block(void *buffer, int k, int count, int bytes) {
  return static_cast<unsigned char *>(buffer) + size_t(k) * count * bytes;
}

inline int rankIn(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

inline int sizeOf(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

struct ResultAndTangent {
  int result, tangent;
};
struct TapeAndResult {
  void *tape;
  int result;
};

} // namespace slope::mpi_rules

#endif
