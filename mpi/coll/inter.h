#pragma once
// Intercommunicator collectives (MPI-3.1 5.2.2 and each call's section): every process of
// one group exchanges with the other group. Each plan is a schedule over the
// intercommunicator's bridge (communicator.h), an intracommunicator over both groups, so
// the blocking and nonblocking forms share it as the intracommunicator plans do
// (collectives.h). Rooted calls take the root as MPI names it: MPI_ROOT at the root,
// MPI_PROC_NULL at the rest of its group, the root's rank in the remote group at the other
// group. Arguments are validated by the caller (capi/); types insignificant on this
// process may be null.
//
// Algorithms, as Open MPI's coll/inter and MPICH's intercommunicator collectives build
// them: data movement goes straight between the processes concerned (a root to or from
// every remote process, or every process with every remote process: one round); the
// reductions reduce within each group to its leader (local rank 0), the leaders exchange
// the results, and each leader passes the other group's result on to its group.
#include "mpi/coll/collectives.h"

namespace zmpi::mpi::coll {

Plan planInterBarrier(Communicator& inter);
Plan planInterBcast(Communicator& inter, void* buffer, int count, const Datatype* type, int root);
Plan planInterGather(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                     int recvcount, const Datatype* recvtype, int root);
Plan planInterGatherv(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                      const int* recvcounts, const int* displs, const Datatype* recvtype, int root);
Plan planInterScatter(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                      int recvcount, const Datatype* recvtype, int root);
Plan planInterScatterv(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* displs,
                       const Datatype* sendtype, void* recvbuf, int recvcount, const Datatype* recvtype, int root);

// Counts and displacements index the remote group.
Plan planInterAllgather(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype,
                        void* recvbuf, int recvcount, const Datatype& recvtype);
Plan planInterAllgatherv(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype,
                         void* recvbuf, const int* recvcounts, const int* displs, const Datatype& recvtype);
Plan planInterAlltoall(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype);
Plan planInterAlltoallv(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* sdispls,
                        const Datatype& sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                        const Datatype& recvtype);
Plan planInterAlltoallw(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* sdispls,
                        const Datatype* const* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                        const Datatype* const* recvtypes);

// The root (MPI_ROOT) gets the reduction of the remote group's operands.
Plan planInterReduce(Communicator& inter, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op, int root);
// Each group gets the reduction of the other group's operands.
Plan planInterAllreduce(Communicator& inter, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                        const Op& op);
// The reduction of the other group's operands (of sum(recvcounts) elements, the same sum
// in both groups), scattered over this group by `recvcounts` (one per local rank).
Plan planInterReduceScatter(Communicator& inter, const void* sendbuf, void* recvbuf, const int* recvcounts,
                            const Datatype& type, const Op& op);

}  // namespace zmpi::mpi::coll
