// Derivative rules for MPI communication.
//
//   #include <mpi.h>
//   #include <slope/mpi.hpp>
//
// Include this header in a file whose differentiated functions call MPI:
// the calls below then have rules, in forward mode (tangents travel beside
// the values, in a second message of the same kind) and in reverse mode
// (the reverse sweep reverses the communication: a send's adjoint is a
// receive of adjoints, a broadcast's a sum to the root, a sum-reduction's
// a broadcast, a sum-allreduce's a sum-allreduce of the adjoints).
//
//   MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Bcast,
//   MPI_Reduce and MPI_Allreduce with MPI_SUM (MPI_IN_PLACE too),
//   MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall,
//   MPI_Gather, MPI_Scatter, MPI_Allgather (MPI_IN_PLACE too)
//
// Non-blocking calls are matched through their requests: MPI_Wait (or
// MPI_Waitall) must complete each request an MPI_Isend or MPI_Irecv of a
// differentiated function started, in the same function. The reverse
// sweep posts the adjoint communication where it reverses the wait and
// completes it where it reverses the send or receive.
//
// on MPI_DOUBLE and MPI_FLOAT data; other datatypes carry no derivatives
// and their rules communicate nothing more. MPI_Comm_rank, MPI_Comm_size
// and MPI_Barrier need no rule. An MPI call without a rule that passes
// differentiated data is a compile error naming it. What these rules do not
// support stops the program with a message at run time: a receive from
// MPI_ANY_SOURCE or with MPI_ANY_TAG in reverse mode (the reverse sweep
// would not know where its adjoints go), and reductions other than
// MPI_SUM, MPI_PROD, MPI_MAX and MPI_MIN.
//
// The blocking rules' pullbacks read only shadows and the calls'
// non-pointer arguments (SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY); the rules
// of non-blocking calls and of reductions keep what they need in records
// of their own: buffers may be reused after the call. Every rank must
// differentiate the same communication, as every rank must run the same
// collective calls.
#ifndef SLOPE_MPI_HPP
#define SLOPE_MPI_HPP

#include <mpi.h>
#include <slope/custom.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
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

// MPI_Send(buf, count, type, dest, tag, comm)

inline Dual<int> sendForward(const void *buf, void *dbuf, int count,
                             MPI_Datatype type, MPI_Datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Comm) {
  int rc = MPI_Send(buf, count, type, dest, tag, comm);
  if (activeBytes(type))
    MPI_Send(dbuf, count, type, dest, tag, comm);
  return {rc, 0};
}

inline void sendPullback(const void *, void *dbuf, int count, MPI_Datatype type,
                         MPI_Datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Comm, int) {
  int bytes = activeBytes(type);
  if (!bytes)
    return;
  std::vector<double> more = scratch(count, bytes);
  MPI_Recv(more.data(), count, type, dest, tag, comm, MPI_STATUS_IGNORE);
  addInto(dbuf, more.data(), count, bytes);
}

// MPI_Recv(buf, count, type, source, tag, comm, status)

inline Dual<int> recvForward(void *buf, void *dbuf, int count,
                             MPI_Datatype type, MPI_Datatype, int source,
                             int tag, MPI_Comm comm, MPI_Comm,
                             MPI_Status *status, MPI_Status *) {
  MPI_Status own;
  MPI_Status *seen = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Recv(buf, count, type, source, tag, comm, seen);
  // The tangent follows the value from the same sender, with the same tag.
  if (activeBytes(type))
    MPI_Recv(dbuf, count, type, seen->MPI_SOURCE, seen->MPI_TAG, comm,
             MPI_STATUS_IGNORE);
  return {rc, 0};
}

inline void recvPullback(void *, void *dbuf, int count, MPI_Datatype type,
                         MPI_Datatype, int source, int tag, MPI_Comm comm,
                         MPI_Comm, MPI_Status *, MPI_Status *, int) {
  int bytes = activeBytes(type);
  if (!bytes)
    return;
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
    unsupported("the reverse sweep of MPI_Recv from MPI_ANY_SOURCE or with "
                "MPI_ANY_TAG is not supported yet: name the sender and tag");
  MPI_Send(dbuf, count, type, source, tag, comm);
  clear(dbuf, count, bytes);
}

// MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag,
//              recvbuf, recvcount, recvtype, source, recvtag, comm, status)

inline Dual<int> sendrecvForward(const void *sendbuf, void *dsendbuf,
                                 int sendcount, MPI_Datatype sendtype,
                                 MPI_Datatype, int dest, int sendtag,
                                 void *recvbuf, void *drecvbuf, int recvcount,
                                 MPI_Datatype recvtype, MPI_Datatype,
                                 int source, int recvtag, MPI_Comm comm,
                                 MPI_Comm, MPI_Status *status, MPI_Status *) {
  MPI_Status own;
  MPI_Status *seen = status == MPI_STATUS_IGNORE ? &own : status;
  int rc = MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                        recvcount, recvtype, source, recvtag, comm, seen);
  if (activeBytes(sendtype) || activeBytes(recvtype))
    MPI_Sendrecv(dsendbuf, activeBytes(sendtype) ? sendcount : 0, sendtype,
                 dest, sendtag, drecvbuf, activeBytes(recvtype) ? recvcount : 0,
                 recvtype, seen->MPI_SOURCE, seen->MPI_TAG, comm,
                 MPI_STATUS_IGNORE);
  return {rc, 0};
}

inline void sendrecvPullback(const void *, void *dsendbuf, int sendcount,
                             MPI_Datatype sendtype, MPI_Datatype, int dest,
                             int sendtag, void *, void *drecvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Datatype, int source,
                             int recvtag, MPI_Comm comm, MPI_Comm, MPI_Status *,
                             MPI_Status *, int) {
  int sendBytes = activeBytes(sendtype), recvBytes = activeBytes(recvtype);
  if (!sendBytes && !recvBytes)
    return;
  if (source == MPI_ANY_SOURCE || recvtag == MPI_ANY_TAG)
    unsupported("the reverse sweep of MPI_Sendrecv from MPI_ANY_SOURCE or "
                "with MPI_ANY_TAG is not supported yet");
  // The received values' adjoints go back to their sender; the sent
  // values' adjoints come back from where they went.
  std::vector<double> more = scratch(sendcount, sendBytes ? sendBytes : 1);
  MPI_Sendrecv(drecvbuf, recvBytes ? recvcount : 0, recvtype, source, recvtag,
               more.data(), sendBytes ? sendcount : 0, sendtype, dest, sendtag,
               comm, MPI_STATUS_IGNORE);
  if (recvBytes)
    clear(drecvbuf, recvcount, recvBytes);
  if (sendBytes)
    addInto(dsendbuf, more.data(), sendcount, sendBytes);
}

// MPI_Bcast(buf, count, type, root, comm)

inline Dual<int> bcastForward(void *buf, void *dbuf, int count,
                              MPI_Datatype type, MPI_Datatype, int root,
                              MPI_Comm comm, MPI_Comm) {
  int rc = MPI_Bcast(buf, count, type, root, comm);
  if (activeBytes(type))
    MPI_Bcast(dbuf, count, type, root, comm);
  return {rc, 0};
}

inline void bcastPullback(void *, void *dbuf, int count, MPI_Datatype type,
                          MPI_Datatype, int root, MPI_Comm comm, MPI_Comm,
                          int) {
  int bytes = activeBytes(type);
  if (!bytes)
    return;
  // Every rank's copy came from the root's buffer: their adjoints add up
  // there.
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == root) {
    MPI_Reduce(MPI_IN_PLACE, dbuf, count, type, MPI_SUM, root, comm);
  } else {
    MPI_Reduce(dbuf, nullptr, count, type, MPI_SUM, root, comm);
    clear(dbuf, count, bytes);
  }
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

// MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
//            root, comm)

inline Dual<int> gatherForward(const void *sendbuf, void *dsendbuf,
                               int sendcount, MPI_Datatype sendtype,
                               MPI_Datatype, void *recvbuf, void *drecvbuf,
                               int recvcount, MPI_Datatype recvtype,
                               MPI_Datatype, int root, MPI_Comm comm,
                               MPI_Comm) {
  int rc = MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm);
  if (activeBytes(sendtype))
    MPI_Gather(sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : dsendbuf, sendcount,
               sendtype, drecvbuf, recvcount, recvtype, root, comm);
  return {rc, 0};
}

inline void gatherPullback(const void *sendbuf, void *dsendbuf, int sendcount,
                           MPI_Datatype sendtype, MPI_Datatype, void *,
                           void *drecvbuf, int recvcount, MPI_Datatype recvtype,
                           MPI_Datatype, int root, MPI_Comm comm, MPI_Comm,
                           int) {
  int bytes = activeBytes(sendtype);
  if (!bytes)
    return;
  // Each gathered block's adjoint goes back to the rank it came from.
  bool atRoot = rankIn(comm) == root, inPlace = sendbuf == MPI_IN_PLACE;
  std::vector<double> mine = scratch(sendcount, bytes);
  MPI_Scatter(drecvbuf, recvcount, recvtype,
              atRoot && inPlace ? MPI_IN_PLACE : mine.data(), sendcount,
              sendtype, root, comm);
  if (atRoot) {
    // In place, the root's block was its contribution: its adjoint stays.
    std::vector<double> own = scratch(recvcount, bytes);
    if (inPlace)
      addInto(own.data(), block(drecvbuf, root, recvcount, bytes), recvcount,
              bytes);
    clear(drecvbuf, recvcount * sizeOf(comm), bytes);
    if (inPlace) {
      addInto(block(drecvbuf, root, recvcount, bytes), own.data(), recvcount,
              bytes);
      return;
    }
  }
  addInto(dsendbuf, mine.data(), sendcount, bytes);
}

// MPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
//             root, comm)

inline Dual<int> scatterForward(const void *sendbuf, void *dsendbuf,
                                int sendcount, MPI_Datatype sendtype,
                                MPI_Datatype, void *recvbuf, void *drecvbuf,
                                int recvcount, MPI_Datatype recvtype,
                                MPI_Datatype, int root, MPI_Comm comm,
                                MPI_Comm) {
  int rc = MPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, root, comm);
  if (activeBytes(recvtype))
    MPI_Scatter(dsendbuf, sendcount, sendtype,
                recvbuf == MPI_IN_PLACE ? MPI_IN_PLACE : drecvbuf, recvcount,
                recvtype, root, comm);
  return {rc, 0};
}

inline void scatterPullback(const void *, void *dsendbuf, int sendcount,
                            MPI_Datatype sendtype, MPI_Datatype, void *recvbuf,
                            void *drecvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Datatype, int root,
                            MPI_Comm comm, MPI_Comm, int) {
  int bytes = activeBytes(recvtype);
  if (!bytes)
    return;
  // The blocks' adjoints gather at the root, into the blocks they left.
  bool atRoot = rankIn(comm) == root, inPlace = recvbuf == MPI_IN_PLACE;
  std::vector<double> all =
      scratch(atRoot ? sendcount * sizeOf(comm) : 0, bytes);
  MPI_Gather(atRoot && inPlace ? MPI_IN_PLACE : drecvbuf, recvcount, recvtype,
             all.data(), sendcount, sendtype, root, comm);
  if (!(atRoot && inPlace))
    clear(drecvbuf, recvcount, bytes);
  if (atRoot)
    addInto(dsendbuf, all.data(), sendcount * sizeOf(comm), bytes);
}

// MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
//               comm)

inline Dual<int> allgatherForward(const void *sendbuf, void *dsendbuf,
                                  int sendcount, MPI_Datatype sendtype,
                                  MPI_Datatype, void *recvbuf, void *drecvbuf,
                                  int recvcount, MPI_Datatype recvtype,
                                  MPI_Datatype, MPI_Comm comm, MPI_Comm) {
  int rc = MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm);
  if (activeBytes(recvtype))
    MPI_Allgather(sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : dsendbuf, sendcount,
                  sendtype, drecvbuf, recvcount, recvtype, comm);
  return {rc, 0};
}

inline void allgatherPullback(const void *sendbuf, void *dsendbuf,
                              int sendcount, MPI_Datatype sendtype,
                              MPI_Datatype, void *, void *drecvbuf,
                              int recvcount, MPI_Datatype recvtype,
                              MPI_Datatype, MPI_Comm comm, MPI_Comm, int) {
  int bytes = activeBytes(recvtype);
  if (!bytes)
    return;
  // Every rank's copy of block k came from rank k: the copies' adjoints
  // add up there.
  int rank = rankIn(comm), size = sizeOf(comm);
  std::vector<double> mine = scratch(recvcount, bytes);
  MPI_Reduce_scatter_block(drecvbuf, mine.data(), recvcount, recvtype, MPI_SUM,
                           comm);
  clear(drecvbuf, recvcount * size, bytes);
  if (sendbuf == MPI_IN_PLACE)
    addInto(block(drecvbuf, rank, recvcount, bytes), mine.data(), recvcount,
            bytes);
  else
    addInto(dsendbuf, mine.data(), sendcount, activeBytes(sendtype));
}

// Non-blocking communication. Each MPI_Isend or MPI_Irecv keeps a record
// of what its derivative needs, found again by the request's address at
// the MPI_Wait that completes it.

/// One non-blocking operation's derivative bookkeeping.
struct Pending {
  bool send;
  void *shadow; // null: the datatype carries no derivatives
  int count;
  MPI_Datatype type;
  int peer, tag;
  MPI_Comm comm;
  MPI_Request tangentRequest = MPI_REQUEST_NULL; // forward mode
  MPI_Request adjointRequest = MPI_REQUEST_NULL; // reverse sweep
  std::vector<double> scratch;
};

/// Records of started operations by the address of their request.
inline std::map<MPI_Request *, Pending *> &pendingRequests() {
  thread_local std::map<MPI_Request *, Pending *> pending;
  return pending;
}

inline Pending *start(bool send, void *dbuf, int count, MPI_Datatype type,
                      int peer, int tag, MPI_Comm comm, MPI_Request *request) {
  auto *p = new Pending{
      send, activeBytes(type) ? dbuf : nullptr, count, type, peer, tag, comm};
  pendingRequests()[request] = p;
  return p;
}

/// The record of the operation \p request belongs to (null if none).
inline Pending *complete(MPI_Request *request) {
  auto found = pendingRequests().find(request);
  if (found == pendingRequests().end())
    return nullptr;
  Pending *p = found->second;
  pendingRequests().erase(found);
  return p;
}

struct ResultAndTangent {
  int result, tangent;
};
struct TapeAndResult {
  void *tape;
  int result;
};

// Forward mode: the tangent travels in a second operation that the wait
// completes with the first.

inline ResultAndTangent isendForward(const void *buf, void *dbuf, int count,
                                     MPI_Datatype type, MPI_Datatype, int dest,
                                     int tag, MPI_Comm comm, MPI_Comm,
                                     MPI_Request *request, MPI_Request *) {
  int rc = MPI_Isend(buf, count, type, dest, tag, comm, request);
  Pending *p = start(true, dbuf, count, type, dest, tag, comm, request);
  if (p->shadow)
    MPI_Isend(dbuf, count, type, dest, tag, comm, &p->tangentRequest);
  return {rc, 0};
}

inline ResultAndTangent irecvForward(void *buf, void *dbuf, int count,
                                     MPI_Datatype type, MPI_Datatype,
                                     int source, int tag, MPI_Comm comm,
                                     MPI_Comm, MPI_Request *request,
                                     MPI_Request *) {
  int rc = MPI_Irecv(buf, count, type, source, tag, comm, request);
  Pending *p = start(false, dbuf, count, type, source, tag, comm, request);
  if (p->shadow) {
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
      unsupported("MPI_Irecv from MPI_ANY_SOURCE or with MPI_ANY_TAG is "
                  "not differentiated yet: name the sender and tag");
    MPI_Irecv(dbuf, count, type, source, tag, comm, &p->tangentRequest);
  }
  return {rc, 0};
}

inline void completeTangent(MPI_Request *request) {
  if (Pending *p = complete(request)) {
    if (p->tangentRequest != MPI_REQUEST_NULL)
      MPI_Wait(&p->tangentRequest, MPI_STATUS_IGNORE);
    delete p;
  }
}

inline ResultAndTangent waitForward(MPI_Request *request, MPI_Request *,
                                    MPI_Status *status, MPI_Status *) {
  int rc = MPI_Wait(request, status);
  completeTangent(request);
  return {rc, 0};
}

inline ResultAndTangent waitallForward(int count, MPI_Request *requests,
                                       MPI_Request *, MPI_Status *statuses,
                                       MPI_Status *) {
  int rc = MPI_Waitall(count, requests, statuses);
  for (int i = 0; i < count; ++i)
    completeTangent(&requests[i]);
  return {rc, 0};
}

// Reverse mode: the augmented forwards start and complete the primal
// operations and hand their records to the reverse parts as tapes.

inline TapeAndResult isendAugmented(const void *buf, void *dbuf, int count,
                                    MPI_Datatype type, MPI_Datatype, int dest,
                                    int tag, MPI_Comm comm, MPI_Comm,
                                    MPI_Request *request, MPI_Request *) {
  int rc = MPI_Isend(buf, count, type, dest, tag, comm, request);
  return {start(true, dbuf, count, type, dest, tag, comm, request), rc};
}

inline TapeAndResult irecvAugmented(void *buf, void *dbuf, int count,
                                    MPI_Datatype type, MPI_Datatype, int source,
                                    int tag, MPI_Comm comm, MPI_Comm,
                                    MPI_Request *request, MPI_Request *) {
  int rc = MPI_Irecv(buf, count, type, source, tag, comm, request);
  return {start(false, dbuf, count, type, source, tag, comm, request), rc};
}

/// Where the reverse sweep reverses a wait: a send's adjoints are received
/// from its destination, a receive's sent back to its source.
inline void postAdjoint(Pending *p) {
  if (!p || !p->shadow)
    return;
  int bytes = activeBytes(p->type);
  p->scratch = scratch(p->count, bytes);
  if (p->send) {
    MPI_Irecv(p->scratch.data(), p->count, p->type, p->peer, p->tag, p->comm,
              &p->adjointRequest);
    return;
  }
  if (p->peer == MPI_ANY_SOURCE || p->tag == MPI_ANY_TAG)
    unsupported("the reverse sweep of MPI_Irecv from MPI_ANY_SOURCE or with "
                "MPI_ANY_TAG is not supported yet: name the sender and tag");
  addInto(p->scratch.data(), p->shadow, p->count, bytes);
  clear(p->shadow, p->count, bytes);
  MPI_Isend(p->scratch.data(), p->count, p->type, p->peer, p->tag, p->comm,
            &p->adjointRequest);
}

/// Where the reverse sweep reverses the send or receive: the adjoint
/// communication completes.
inline void finishAdjoint(void *tape) {
  auto *p = static_cast<Pending *>(tape);
  if (p->adjointRequest != MPI_REQUEST_NULL) {
    MPI_Wait(&p->adjointRequest, MPI_STATUS_IGNORE);
    if (p->send)
      addInto(p->shadow, p->scratch.data(), p->count, activeBytes(p->type));
  }
  delete p;
}

inline void isendReverse(const void *, void *, int, MPI_Datatype, MPI_Datatype,
                         int, int, MPI_Comm, MPI_Comm, MPI_Request *,
                         MPI_Request *, void *tape) {
  finishAdjoint(tape);
}

inline void irecvReverse(void *, void *, int, MPI_Datatype, MPI_Datatype, int,
                         int, MPI_Comm, MPI_Comm, MPI_Request *, MPI_Request *,
                         void *tape) {
  finishAdjoint(tape);
}

inline TapeAndResult waitAugmented(MPI_Request *request, MPI_Request *,
                                   MPI_Status *status, MPI_Status *) {
  Pending *p = complete(request);
  return {p, MPI_Wait(request, status)};
}

inline void waitReverse(MPI_Request *, MPI_Request *, MPI_Status *,
                        MPI_Status *, void *tape) {
  postAdjoint(static_cast<Pending *>(tape));
}

inline TapeAndResult waitallAugmented(int count, MPI_Request *requests,
                                      MPI_Request *, MPI_Status *statuses,
                                      MPI_Status *) {
  auto *records = new std::vector<Pending *>(count);
  for (int i = 0; i < count; ++i)
    (*records)[i] = complete(&requests[i]);
  return {records, MPI_Waitall(count, requests, statuses)};
}

inline void waitallReverse(int, MPI_Request *, MPI_Request *, MPI_Status *,
                           MPI_Status *, void *tape) {
  auto *records = static_cast<std::vector<Pending *> *>(tape);
  for (Pending *p : *records)
    postAdjoint(p);
  delete records;
}

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

/// Rules in Enzyme's conventions {f, forward, augmented forward, reverse}
/// that every call runs, also one that passes no differentiated data (a
/// wait): they keep the books between the calls.
#define SLOPE_MPI_RULES_(F, FORWARD, AUGMENTED, REVERSE)                       \
  __attribute__((used,                                                         \
                 section(".slope.rules.always"))) static const void *const     \
  SLOPE_CONCAT_(slope_mpi_rule_,                                               \
                __COUNTER__)[4] = {reinterpret_cast<const void *>(&F),         \
                                   reinterpret_cast<const void *>(&FORWARD),   \
                                   reinterpret_cast<const void *>(&AUGMENTED), \
                                   reinterpret_cast<const void *>(&REVERSE)}

SLOPE_MPI_RULES_(MPI_Isend, slope::mpi_rules::isendForward,
                 slope::mpi_rules::isendAugmented,
                 slope::mpi_rules::isendReverse);
SLOPE_MPI_RULES_(MPI_Irecv, slope::mpi_rules::irecvForward,
                 slope::mpi_rules::irecvAugmented,
                 slope::mpi_rules::irecvReverse);
SLOPE_MPI_RULES_(MPI_Wait, slope::mpi_rules::waitForward,
                 slope::mpi_rules::waitAugmented,
                 slope::mpi_rules::waitReverse);
SLOPE_MPI_RULES_(MPI_Waitall, slope::mpi_rules::waitallForward,
                 slope::mpi_rules::waitallAugmented,
                 slope::mpi_rules::waitallReverse);
SLOPE_MPI_RULES_(MPI_Reduce, slope::mpi_rules::reduceForward,
                 slope::mpi_rules::reduceAugmented,
                 slope::mpi_rules::reduceReverse);
SLOPE_MPI_RULES_(MPI_Allreduce, slope::mpi_rules::allreduceForward,
                 slope::mpi_rules::allreduceAugmented,
                 slope::mpi_rules::allreduceReverse);

SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Send, slope::mpi_rules::sendForward,
                                     slope::mpi_rules::sendPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Recv, slope::mpi_rules::recvForward,
                                     slope::mpi_rules::recvPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Sendrecv,
                                     slope::mpi_rules::sendrecvForward,
                                     slope::mpi_rules::sendrecvPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Bcast, slope::mpi_rules::bcastForward,
                                     slope::mpi_rules::bcastPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Gather,
                                     slope::mpi_rules::gatherForward,
                                     slope::mpi_rules::gatherPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Scatter,
                                     slope::mpi_rules::scatterForward,
                                     slope::mpi_rules::scatterPullback);
SLOPE_CUSTOM_DERIVATIVE_SHADOWS_ONLY(MPI_Allgather,
                                     slope::mpi_rules::allgatherForward,
                                     slope::mpi_rules::allgatherPullback);

#endif
