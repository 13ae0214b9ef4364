#pragma once
// The collectives as MPI calls them. Each plan* function builds the complete schedule of
// one call on this rank: packing of derived types, the algorithm the selector picks
// (select.h), unpacking. Run it with run() (schedule.h, blocking) or start() (async.h,
// nonblocking): the same plan serves MPI_Bcast and MPI_Ibcast.
//
// Arguments are the MPI call's, already validated (capi/); MPI_IN_PLACE is passed through.
// Datatype pointers may be null where the standard makes the argument insignificant
// (a non-root's receive type, an MPI_IN_PLACE send type). Counts are elements, as in MPI;
// alltoallw's displacements are bytes. Arrays are read while planning, never later.
#include <memory>

#include "mpi/coll/schedule.h"
#include "mpi/comm/communicator.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

using Plan = std::unique_ptr<Schedule>;

Plan planBarrier(Communicator& comm);
Plan planBcast(Communicator& comm, void* buffer, int count, const Datatype& type, int root);
Plan planGather(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                int recvcount, const Datatype* recvtype, int root);
Plan planGatherv(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 const int* recvcounts, const int* displs, const Datatype* recvtype, int root);
Plan planScatter(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 int recvcount, const Datatype* recvtype, int root);
Plan planScatterv(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* displs,
                  const Datatype* sendtype, void* recvbuf, int recvcount, const Datatype* recvtype, int root);

Plan planAllgather(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype);
Plan planAllgatherv(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                    const int* recvcounts, const int* displs, const Datatype& recvtype);
Plan planAlltoall(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype);
Plan planAlltoallv(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* sdispls,
                   const Datatype* sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                   const Datatype& recvtype);
Plan planAlltoallw(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* sdispls,
                   const Datatype* const* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                   const Datatype* const* recvtypes);

Plan planReduce(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                int root);
Plan planAllreduce(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                   const Op& op);
Plan planReduceScatter(Communicator& comm, const void* sendbuf, void* recvbuf, const int* recvcounts,
                       const Datatype& type, const Op& op);
Plan planReduceScatterBlock(Communicator& comm, const void* sendbuf, void* recvbuf, int recvcount, const Datatype& type,
                            const Op& op);
Plan planScan(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op);
Plan planExscan(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op);

}  // namespace zmpi::mpi::coll
