#pragma once
// Small blocking collectives run directly: the messages their plans would send (same
// peers, steps, tags and bytes, in the same order; see the algorithm named in each
// comment), but sent and received with requests on the caller's stack and waited on one
// by one (alltoall: a window of peers at once). No schedule, no callbacks, scratch on the
// stack up to 2 KiB: a small collective then costs little more than its point-to-point
// messages.
//
// Each function returns false, having sent nothing and taken no sequence number, when the
// call is not one it serves (alltoall: MPI_IN_PLACE, where the plan differs; sizes above
// the limits below or the eager limit; pieces smaller than the message
// (ZMPI_COLL_SEGMENT_BYTES); an algorithm forced with ZMPI_COLL_<NAME>); the caller then
// runs the plan. Derived datatypes are packed into scratch and unpacked as the plans do.
// Because both forms send identical messages, one rank may go direct while another runs
// the plan.
//
// Arguments are the MPI call's, already validated (capi/).
#include <cstddef>

#include "mpi/comm/communicator.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

// The largest operand (per message, and scratch per call) a direct collective handles.
inline constexpr std::size_t kDirectMaxBytes = 64 * 1024;
// Bcast and reduce do not synchronise: in a loop the senders run ahead of the receivers,
// and a faster sender only floods the same-host ring (past it, messages are queued in
// copies). Measured on 2 ranks (bcast in a loop): direct is 0.5x the plan's time at 1 KiB,
// 1.4-2x from 2 KiB. So they go direct only up to here.
inline constexpr std::size_t kDirectRootedMaxBytes = 1024;

bool barrierDirect(Communicator& comm);
bool bcastDirect(Communicator& comm, void* buffer, int count, const Datatype& type, int root);
bool reduceDirect(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                  int root);
bool allreduceDirect(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op);
bool allgatherDirect(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype);
bool alltoallDirect(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype);

}  // namespace zmpi::mpi::coll
