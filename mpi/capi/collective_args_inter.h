#pragma once
// The intercommunicator forms of the collectives (MPI-3.1 5.2.2): argument checks as the
// standard gives them there (roots are MPI_ROOT, MPI_PROC_NULL or a rank of the remote
// group; counts and displacements index the remote group; no MPI_IN_PLACE), then the plans
// of coll/inter.h. collective_args.cc sends every call on an intercommunicator here.
#include <mpi.h>

#include "mpi/capi/validate.h"
#include "mpi/coll/collectives.h"

namespace zmpi::mpi::capi {

// Whether a collective goes the intercommunicator way. Only a look at a valid handle:
// anything else takes the usual path, whose checks report it; so the intracommunicator
// path pays a load and a branch, not a second lookup with its checks.
inline bool isInter(MPI_Comm comm) {
  return isHandleOf(comm, HandleKind::Comm) && implOf<Communicator>(comm) != nullptr &&
         implOf<Communicator>(comm)->isInter();
}

coll::Plan interBarrierPlan(MPI_Comm comm);
coll::Plan interBcastPlan(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
coll::Plan interGatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan interGathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan interScatterPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan interScattervPlan(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
coll::Plan interAllgatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan interAllgathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan interAlltoallPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm);
coll::Plan interAlltoallvPlan(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm);
coll::Plan interAlltoallwPlan(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
coll::Plan interReducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm);
coll::Plan interAllreducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm);
coll::Plan interReduceScatterPlan(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm);
coll::Plan interReduceScatterBlockPlan(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm);

}  // namespace zmpi::mpi::capi
