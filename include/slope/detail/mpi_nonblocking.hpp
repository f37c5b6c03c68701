// MPI rules: non-blocking sends and receives and their waits.
// Part of <slope/mpi.hpp>; include that header.
#ifndef SLOPE_DETAIL_MPI_NONBLOCKING_HPP
#define SLOPE_DETAIL_MPI_NONBLOCKING_HPP

#include <slope/detail/mpi_common.hpp>

#include <map>

namespace slope::mpi_rules {

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

} // namespace slope::mpi_rules

#endif
