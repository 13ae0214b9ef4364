#pragma once
// From C arguments to a collective's plan: the argument checks the standard asks for
// (MPI_ERR_COMM, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER, MPI_ERR_ROOT, MPI_ERR_OP,
// MPI_ERR_ARG), then coll::plan*. Shared by the blocking entry points (collectives.cc),
// which run the plan, and the nonblocking ones (nonblocking_collectives.cc), which start it.
// Only the arguments the standard makes significant on this rank are checked.
#include <mpi.h>

#include "mpi/coll/collectives.h"

namespace zmpi::mpi::capi {

coll::Plan barrierPlan(MPI_Comm comm);
coll::Plan bcastPlan(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
coll::Plan gatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan gathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan scatterPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan scattervPlan(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan allgatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan allgathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan alltoallPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan alltoallvPlan(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm);
coll::Plan alltoallwPlan(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm);

coll::Plan reducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                      MPI_Comm comm);
coll::Plan allreducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm);
coll::Plan reduceScatterPlan(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm);
coll::Plan reduceScatterBlockPlan(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm);
// The blocking forms of the common collectives: the same checks, then the call runs
// directly when it is small (coll/direct.h) or its plan runs in the caller.
void runBarrier(MPI_Comm comm);
void runBcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
void runAllgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm);
void runAlltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm);
void runReduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm);
void runAllreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

coll::Plan scanPlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
coll::Plan exscanPlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

}  // namespace zmpi::mpi::capi
