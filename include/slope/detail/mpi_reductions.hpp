// MPI rules: MPI_Reduce and MPI_Allreduce, weights per contribution.
// Part of <slope/mpi.hpp>; include that header.
#ifndef SLOPE_DETAIL_MPI_REDUCTIONS_HPP
#define SLOPE_DETAIL_MPI_REDUCTIONS_HPP

#include <slope/detail/mpi_common.hpp>

namespace slope::mpi_rules {

// Reductions. The derivative of a reduction with respect to one rank's
// contribution is a weight per element: 1 for MPI_SUM; for MPI_MAX and
// MPI_MIN 1 on the rank that held the extremum (the lowest such rank on
// ties) and 0 elsewhere; for MPI_PROD the product of the other ranks'
// values. The augmented forward records the weights (none for a sum).

using Weights = std::vector<double>;

template <class T>
void weighted(void *out, const void *in, const Weights *w, int count,
              bool add) {
  for (int i = 0; i < count; ++i) {
    T v = static_cast<const T *>(in)[i];
    if (w)
      v = T((*w)[i] * v);
    static_cast<T *>(out)[i] = add ? static_cast<T *>(out)[i] + v : v;
  }
}

/// out[i] (+)= w[i] * in[i] (w null: all weights 1).
inline void weighted(void *out, const void *in, const Weights *w, int count,
                     int bytes, bool add) {
  if (bytes == 8)
    weighted<double>(out, in, w, count, add);
  else
    weighted<float>(out, in, w, count, add);
}

inline double valueAt(const void *values, int i, int bytes) {
  return bytes == 8 ? static_cast<const double *>(values)[i]
                    : double(static_cast<const float *>(values)[i]);
}

/// 1 where this rank's value \p mine is the extremum \p result and no lower
/// rank's is, else 0.
inline Weights extremumWeights(const void *mine, const void *result, int count,
                               int bytes, MPI_Comm comm) {
  int rank = rankIn(comm), size = sizeOf(comm);
  std::vector<int> candidate(count), owner(count);
  for (int i = 0; i < count; ++i)
    candidate[i] =
        valueAt(mine, i, bytes) == valueAt(result, i, bytes) ? rank : size;
  MPI_Allreduce(candidate.data(), owner.data(), count, MPI_INT, MPI_MIN, comm);
  Weights w(count);
  for (int i = 0; i < count; ++i)
    w[i] = owner[i] == rank ? 1.0 : 0.0;
  return w;
}

/// The product of the other ranks' values, element by element (exact where
/// values are zero: no division).
inline Weights productWeights(const void *mine, int count, int bytes,
                              MPI_Datatype type, MPI_Comm comm) {
  int rank = rankIn(comm), size = sizeOf(comm);
  std::vector<double> all = scratch(count * size, bytes);
  MPI_Allgather(mine, count, type, all.data(), count, type, comm);
  Weights w(count, 1.0);
  for (int r = 0; r < size; ++r)
    if (r != rank)
      for (int i = 0; i < count; ++i)
        w[i] *= valueAt(all.data(), r * count + i, bytes);
  return w;
}

enum class Reduction { Sum, Extremum, Product };

inline Reduction reductionOf(MPI_Op op) {
  if (op == MPI_SUM)
    return Reduction::Sum;
  if (op == MPI_MAX || op == MPI_MIN)
    return Reduction::Extremum;
  if (op == MPI_PROD)
    return Reduction::Product;
  unsupported("a reduction other than MPI_SUM, MPI_PROD, MPI_MAX or MPI_MIN "
              "is not differentiated yet");
}

inline std::vector<double> copyOf(const void *values, int count, int bytes) {
  std::vector<double> copy = scratch(count, bytes);
  addInto(copy.data(), values, count, bytes);
  return copy;
}

/// This rank's weights for a reduction of \p mine to \p result (known
/// on every rank); null for a sum.
inline Weights *weightsOf(Reduction kind, const void *mine, const void *result,
                          int count, int bytes, MPI_Datatype type,
                          MPI_Comm comm) {
  if (kind == Reduction::Extremum)
    return new Weights(extremumWeights(mine, result, count, bytes, comm));
  if (kind == Reduction::Product)
    return new Weights(productWeights(mine, count, bytes, type, comm));
  return nullptr;
}

// MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm)

inline ResultAndTangent allreduceForward(const void *sendbuf, void *dsendbuf,
                                         void *recvbuf, void *drecvbuf,
                                         int count, MPI_Datatype type,
                                         MPI_Datatype, MPI_Op op, MPI_Op,
                                         MPI_Comm comm, MPI_Comm) {
  int bytes = activeBytes(type);
  if (!bytes)
    return {MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm), 0};
  bool inPlace = sendbuf == MPI_IN_PLACE;
  Reduction kind = reductionOf(op);
  std::vector<double> mine = copyOf(inPlace ? recvbuf : sendbuf, count, bytes);
  std::vector<double> tangent =
      copyOf(inPlace ? drecvbuf : dsendbuf, count, bytes);
  int rc = MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  Weights *w = weightsOf(kind, mine.data(), recvbuf, count, bytes, type, comm);
  std::vector<double> part = scratch(count, bytes);
  weighted(part.data(), tangent.data(), w, count, bytes, false);
  MPI_Allreduce(part.data(), drecvbuf, count, type, MPI_SUM, comm);
  delete w;
  return {rc, 0};
}

inline TapeAndResult allreduceAugmented(const void *sendbuf, void *,
                                        void *recvbuf, void *, int count,
                                        MPI_Datatype type, MPI_Datatype,
                                        MPI_Op op, MPI_Op, MPI_Comm comm,
                                        MPI_Comm) {
  int bytes = activeBytes(type);
  if (!bytes)
    return {nullptr, MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm)};
  Reduction kind = reductionOf(op);
  std::vector<double> mine =
      copyOf(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, bytes);
  int rc = MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  return {weightsOf(kind, mine.data(), recvbuf, count, bytes, type, comm), rc};
}

inline void allreduceReverse(const void *sendbuf, void *dsendbuf, void *,
                             void *drecvbuf, int count, MPI_Datatype type,
                             MPI_Datatype, MPI_Op, MPI_Op, MPI_Comm comm,
                             MPI_Comm, void *tape) {
  int bytes = activeBytes(type);
  if (!bytes)
    return;
  // Every rank's result depends on the contributions alike: the results'
  // adjoints add up, then reach each contribution with its weight.
  std::vector<double> total = scratch(count, bytes);
  MPI_Allreduce(drecvbuf, total.data(), count, type, MPI_SUM, comm);
  auto *w = static_cast<Weights *>(tape);
  if (sendbuf == MPI_IN_PLACE) {
    weighted(drecvbuf, total.data(), w, count, bytes, false);
  } else {
    clear(drecvbuf, count, bytes);
    weighted(dsendbuf, total.data(), w, count, bytes, true);
  }
  delete w;
}

// MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm)

/// The root's result on every rank (for the weights of an extremum).
inline std::vector<double> resultEverywhere(const void *recvbuf, int count,
                                            int bytes, MPI_Datatype type,
                                            int root, MPI_Comm comm) {
  std::vector<double> result = scratch(count, bytes);
  if (rankIn(comm) == root)
    addInto(result.data(), recvbuf, count, bytes);
  MPI_Bcast(result.data(), count, type, root, comm);
  return result;
}

inline ResultAndTangent reduceForward(const void *sendbuf, void *dsendbuf,
                                      void *recvbuf, void *drecvbuf, int count,
                                      MPI_Datatype type, MPI_Datatype,
                                      MPI_Op op, MPI_Op, int root,
                                      MPI_Comm comm, MPI_Comm) {
  int bytes = activeBytes(type);
  if (!bytes)
    return {MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm), 0};
  bool inPlace = sendbuf == MPI_IN_PLACE, atRoot = rankIn(comm) == root;
  Reduction kind = reductionOf(op);
  std::vector<double> mine = copyOf(inPlace ? recvbuf : sendbuf, count, bytes);
  std::vector<double> tangent =
      copyOf(inPlace ? drecvbuf : dsendbuf, count, bytes);
  int rc = MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  std::vector<double> result =
      resultEverywhere(recvbuf, count, bytes, type, root, comm);
  Weights *w =
      weightsOf(kind, mine.data(), result.data(), count, bytes, type, comm);
  std::vector<double> part = scratch(count, bytes);
  weighted(part.data(), tangent.data(), w, count, bytes, false);
  MPI_Reduce(part.data(), atRoot ? drecvbuf : nullptr, count, type, MPI_SUM,
             root, comm);
  delete w;
  return {rc, 0};
}

inline TapeAndResult reduceAugmented(const void *sendbuf, void *, void *recvbuf,
                                     void *, int count, MPI_Datatype type,
                                     MPI_Datatype, MPI_Op op, MPI_Op, int root,
                                     MPI_Comm comm, MPI_Comm) {
  int bytes = activeBytes(type);
  if (!bytes)
    return {nullptr, MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm)};
  Reduction kind = reductionOf(op);
  std::vector<double> mine =
      copyOf(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, bytes);
  int rc = MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  if (kind == Reduction::Sum)
    return {nullptr, rc};
  std::vector<double> result =
      resultEverywhere(recvbuf, count, bytes, type, root, comm);
  return {weightsOf(kind, mine.data(), result.data(), count, bytes, type, comm),
          rc};
}

inline void reduceReverse(const void *sendbuf, void *dsendbuf, void *,
                          void *drecvbuf, int count, MPI_Datatype type,
                          MPI_Datatype, MPI_Op, MPI_Op, int root, MPI_Comm comm,
                          MPI_Comm, void *tape) {
  int bytes = activeBytes(type);
  if (!bytes)
    return;
  // The result's adjoint reaches each contribution with its weight.
  bool atRoot = rankIn(comm) == root;
  std::vector<double> result = scratch(count, bytes);
  if (atRoot)
    addInto(result.data(), drecvbuf, count, bytes);
  MPI_Bcast(result.data(), count, type, root, comm);
  auto *w = static_cast<Weights *>(tape);
  if (atRoot && sendbuf == MPI_IN_PLACE) {
    // The root's buffer was its contribution and holds the result.
    weighted(drecvbuf, result.data(), w, count, bytes, false);
  } else {
    if (atRoot)
      clear(drecvbuf, count, bytes);
    weighted(dsendbuf, result.data(), w, count, bytes, true);
  }
  delete w;
}

} // namespace slope::mpi_rules

#endif
