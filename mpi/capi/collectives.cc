// The blocking collectives: check the arguments, plan (collective_args.h), run the plan
// in the calling thread (coll/schedule.h); small common ones run directly (coll/direct.h).
#include "mpi/capi/collective_args.h"
#include "mpi/capi/entry.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

extern "C" {

int PMPI_Barrier(MPI_Comm comm) {
  return guardedComm("MPI_Barrier", comm, [&] {
    runBarrier(comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Barrier)

int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return guardedComm("MPI_Bcast", comm, [&] {
    runBcast(buffer, count, datatype, root, comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Bcast)

int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guardedComm("MPI_Gather", comm, [&] {
    coll::run(*gatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Gather)

int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guardedComm("MPI_Gatherv", comm, [&] {
    coll::run(*gathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Gatherv)

int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guardedComm("MPI_Scatter", comm, [&] {
    coll::run(*scatterPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Scatter)

int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guardedComm("MPI_Scatterv", comm, [&] {
    coll::run(*scattervPlan(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Scatterv)

int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
  return guardedComm("MPI_Allgather", comm, [&] {
    runAllgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Allgather)

int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return guardedComm("MPI_Allgatherv", comm, [&] {
    coll::run(*allgathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Allgatherv)

int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return guardedComm("MPI_Alltoall", comm, [&] {
    runAlltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Alltoall)

int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return guardedComm("MPI_Alltoallv", comm, [&] {
    coll::run(*alltoallvPlan(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Alltoallv)

int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm) {
  return guardedComm("MPI_Alltoallw", comm, [&] {
    coll::run(*alltoallwPlan(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Alltoallw)

int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm) {
  return guardedComm("MPI_Reduce", comm, [&] {
    runReduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Reduce)

int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guardedComm("MPI_Allreduce", comm, [&] {
    runAllreduce(sendbuf, recvbuf, count, datatype, op, comm);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Allreduce)

int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm) {
  return guardedComm("MPI_Reduce_scatter", comm, [&] {
    coll::run(*reduceScatterPlan(sendbuf, recvbuf, recvcounts, datatype, op, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Reduce_scatter)

int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  return guardedComm("MPI_Reduce_scatter_block", comm, [&] {
    coll::run(*reduceScatterBlockPlan(sendbuf, recvbuf, recvcount, datatype, op, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Reduce_scatter_block)

int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guardedComm("MPI_Scan", comm, [&] {
    coll::run(*scanPlan(sendbuf, recvbuf, count, datatype, op, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Scan)

int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guardedComm("MPI_Exscan", comm, [&] {
    coll::run(*exscanPlan(sendbuf, recvbuf, count, datatype, op, comm));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Exscan)

}  // extern "C"
