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
#include <slope/detail/mpi_blocking.hpp>
#include <slope/detail/mpi_nonblocking.hpp>
#include <slope/detail/mpi_reductions.hpp>

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
