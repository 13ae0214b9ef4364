// The nonblocking collectives: the same plans as the blocking ones (collective_args.h),
// started as a request that progresses on its own (coll/async.h) and completes under
// MPI_Wait/MPI_Test.
#include "mpi/capi/collective_args.h"
#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/coll/async.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

int startPlan(MPI_Request* request, coll::Plan plan) {
  *request = coll::start(std::move(plan))->handle();
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ibarrier", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, barrierPlan(comm));
  });
}
ZMPI_ALIAS(MPI_Ibarrier)

int PMPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ibcast", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, bcastPlan(buffer, count, datatype, root, comm));
  });
}
ZMPI_ALIAS(MPI_Ibcast)

int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Igather", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, gatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
  });
}
ZMPI_ALIAS(MPI_Igather)

int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Igatherv", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request,
                     gathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
  });
}
ZMPI_ALIAS(MPI_Igatherv)

int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Iscatter", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, scatterPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
  });
}
ZMPI_ALIAS(MPI_Iscatter)

int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Iscatterv", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request,
                     scattervPlan(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
  });
}
ZMPI_ALIAS(MPI_Iscatterv)

int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Iallgather", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, allgatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  });
}
ZMPI_ALIAS(MPI_Iallgather)

int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Iallgatherv", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request,
                     allgathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
  });
}
ZMPI_ALIAS(MPI_Iallgatherv)

int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ialltoall", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, alltoallPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  });
}
ZMPI_ALIAS(MPI_Ialltoall)

int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  return guardedComm("MPI_Ialltoallv", comm, [&] {
    pointerArg(request, "request");
    return startPlan(
        request, alltoallvPlan(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
  });
}
ZMPI_ALIAS(MPI_Ialltoallv)

int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ialltoallw", comm, [&] {
    pointerArg(request, "request");
    return startPlan(
        request, alltoallwPlan(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm));
  });
}
ZMPI_ALIAS(MPI_Ialltoallw)

int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ireduce", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, reducePlan(sendbuf, recvbuf, count, datatype, op, root, comm));
  });
}
ZMPI_ALIAS(MPI_Ireduce)

int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request* request) {
  return guardedComm("MPI_Iallreduce", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, allreducePlan(sendbuf, recvbuf, count, datatype, op, comm));
  });
}
ZMPI_ALIAS(MPI_Iallreduce)

int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ireduce_scatter", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, reduceScatterPlan(sendbuf, recvbuf, recvcounts, datatype, op, comm));
  });
}
ZMPI_ALIAS(MPI_Ireduce_scatter)

int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, MPI_Request* request) {
  return guardedComm("MPI_Ireduce_scatter_block", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, reduceScatterBlockPlan(sendbuf, recvbuf, recvcount, datatype, op, comm));
  });
}
ZMPI_ALIAS(MPI_Ireduce_scatter_block)

int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request* request) {
  return guardedComm("MPI_Iscan", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, scanPlan(sendbuf, recvbuf, count, datatype, op, comm));
  });
}
ZMPI_ALIAS(MPI_Iscan)

int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request* request) {
  return guardedComm("MPI_Iexscan", comm, [&] {
    pointerArg(request, "request");
    return startPlan(request, exscanPlan(sendbuf, recvbuf, count, datatype, op, comm));
  });
}
ZMPI_ALIAS(MPI_Iexscan)

}  // extern "C"
