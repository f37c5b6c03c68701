// MPI rules: blocking sends and receives, broadcasts, gathers, scatters.
// Part of <slope/mpi.hpp>; include that header.
#ifndef SLOPE_DETAIL_MPI_BLOCKING_HPP
#define SLOPE_DETAIL_MPI_BLOCKING_HPP

#include <slope/detail/mpi_common.hpp>

namespace slope::mpi_rules {

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

} // namespace slope::mpi_rules

#endif
