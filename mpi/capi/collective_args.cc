// Argument checks of the data-movement collectives (see collective_args.h).
#include "mpi/capi/collective_args.h"

#include <vector>

#include "mpi/capi/collective_args_inter.h"
#include "mpi/capi/collective_validate.h"
#include "mpi/coll/direct.h"
#include "mpi/coll/shm_collectives.h"

namespace zmpi::mpi::capi {
namespace {

// A send side this rank must describe: count, type, buffer (MPI_IN_PLACE handled by the caller).
const Datatype* sendArgs(const void* sendbuf, int sendcount, MPI_Datatype sendtype) {
  countArg(sendcount, "sendcount");
  const Datatype* type = &typeArg(sendtype);
  dataArg(sendbuf, sendcount, *type, "sendbuf");
  return type;
}

const Datatype* recvArgs(void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  countArg(recvcount, "recvcount");
  const Datatype* type = &typeArg(recvtype);
  dataArg(recvbuf, recvcount, *type, "recvbuf");
  return type;
}

// The v-variants' side: counts, displacements, type, and a buffer if anything moves.
const Datatype* vectorArgs(const Communicator& comm, const void* buffer, const int* counts, const int* displs,
                           MPI_Datatype type, const char* side) {
  const std::string name(side);
  countsArg(comm, counts, (name + "counts").c_str());
  displacementsArg(displs, (name + " displacements").c_str());
  const Datatype* t = &typeArg(type);
  int any = 0;
  for (int i = 0; i < comm.size(); ++i) any |= counts[i] > 0;
  dataArg(buffer, any, *t, (name + "buf").c_str());
  return t;
}

// The checked arguments of a bcast.
struct BcastArgs {
  Communicator& comm;
  const Datatype& type;
};

BcastArgs bcastArgs(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(count);
  const Datatype& type = typeArg(datatype);
  rootArg(c, root);
  dataArg(buffer, count, type, "buffer");
  return {c, type};
}

// Allgather's and alltoall's: the send type is null for MPI_IN_PLACE.
struct AllArgs {
  Communicator& comm;
  const Datatype* sendtype;
  const Datatype& recvtype;
};

AllArgs allArgs(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Datatype* st = sendbuf == MPI_IN_PLACE ? nullptr : sendArgs(sendbuf, sendcount, sendtype);
  const Datatype* rt = recvArgs(recvbuf, recvcount, recvtype);
  return {c, st, *rt};
}

}  // namespace

coll::Plan barrierPlan(MPI_Comm comm) {
  if (isInter(comm)) return interBarrierPlan(comm);
  return coll::planBarrier(commArg(comm));
}

void runBarrier(MPI_Comm comm) {
  if (isInter(comm)) return coll::run(*interBarrierPlan(comm));
  Communicator& c = commArg(comm);
  if (!coll::barrierShm(c) && !coll::barrierDirect(c)) coll::run(*coll::planBarrier(c));
}

coll::Plan bcastPlan(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (isInter(comm)) return interBcastPlan(buffer, count, datatype, root, comm);
  const BcastArgs a = bcastArgs(buffer, count, datatype, root, comm);
  return coll::planBcast(a.comm, buffer, count, a.type, root);
}

void runBcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (isInter(comm)) return coll::run(*interBcastPlan(buffer, count, datatype, root, comm));
  const BcastArgs a = bcastArgs(buffer, count, datatype, root, comm);
  if (!coll::bcastShm(a.comm, buffer, count, a.type, root) && !coll::bcastDirect(a.comm, buffer, count, a.type, root)) {
    coll::run(*coll::planBcast(a.comm, buffer, count, a.type, root));
  }
}

coll::Plan gatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (isInter(comm)) return interGatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  Communicator& c = commArg(comm);
  rootArg(c, root);
  const bool isRoot = c.rank() == root;
  const Datatype* st = isRoot && sendbuf == MPI_IN_PLACE ? nullptr : sendArgs(sendbuf, sendcount, sendtype);
  const Datatype* rt = isRoot ? recvArgs(recvbuf, recvcount, recvtype) : nullptr;
  return coll::planGather(c, sendbuf, sendcount, st, recvbuf, recvcount, rt, root);
}

coll::Plan gathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (isInter(comm))
    return interGathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  Communicator& c = commArg(comm);
  rootArg(c, root);
  const bool isRoot = c.rank() == root;
  const Datatype* st = isRoot && sendbuf == MPI_IN_PLACE ? nullptr : sendArgs(sendbuf, sendcount, sendtype);
  const Datatype* rt = isRoot ? vectorArgs(c, recvbuf, recvcounts, displs, recvtype, "recv") : nullptr;
  if (isRoot && recvbuf == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE");
  return coll::planGatherv(c, sendbuf, sendcount, st, recvbuf, recvcounts, displs, rt, root);
}

coll::Plan scatterPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (isInter(comm)) return interScatterPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  Communicator& c = commArg(comm);
  rootArg(c, root);
  const bool isRoot = c.rank() == root;
  const Datatype* st = isRoot ? sendArgs(sendbuf, sendcount, sendtype) : nullptr;
  const Datatype* rt = isRoot && recvbuf == MPI_IN_PLACE ? nullptr : recvArgs(recvbuf, recvcount, recvtype);
  return coll::planScatter(c, sendbuf, sendcount, st, recvbuf, recvcount, rt, root);
}

coll::Plan scattervPlan(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (isInter(comm))
    return interScattervPlan(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  Communicator& c = commArg(comm);
  rootArg(c, root);
  const bool isRoot = c.rank() == root;
  const Datatype* st = isRoot ? vectorArgs(c, sendbuf, sendcounts, displs, sendtype, "send") : nullptr;
  if (isRoot && sendbuf == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE");
  const Datatype* rt = isRoot && recvbuf == MPI_IN_PLACE ? nullptr : recvArgs(recvbuf, recvcount, recvtype);
  return coll::planScatterv(c, sendbuf, sendcounts, displs, st, recvbuf, recvcount, rt, root);
}

coll::Plan allgatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm) {
  if (isInter(comm)) return interAllgatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const AllArgs a = allArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return coll::planAllgather(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype);
}

void runAllgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  if (isInter(comm))
    return coll::run(*interAllgatherPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  const AllArgs a = allArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (!coll::allgatherShm(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype) &&
      !coll::allgatherDirect(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype)) {
    coll::run(*coll::planAllgather(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype));
  }
}

coll::Plan allgathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (isInter(comm))
    return interAllgathervPlan(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  Communicator& c = commArg(comm);
  const Datatype* st = sendbuf == MPI_IN_PLACE ? nullptr : sendArgs(sendbuf, sendcount, sendtype);
  const Datatype* rt = vectorArgs(c, recvbuf, recvcounts, displs, recvtype, "recv");
  if (recvbuf == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE");
  return coll::planAllgatherv(c, sendbuf, sendcount, st, recvbuf, recvcounts, displs, *rt);
}

coll::Plan alltoallPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm) {
  if (isInter(comm)) return interAlltoallPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const AllArgs a = allArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return coll::planAlltoall(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype);
}

void runAlltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  if (isInter(comm))
    return coll::run(*interAlltoallPlan(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
  const AllArgs a = allArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (!coll::alltoallShm(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype) &&
      !coll::alltoallDirect(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype)) {
    coll::run(*coll::planAlltoall(a.comm, sendbuf, sendcount, a.sendtype, recvbuf, recvcount, a.recvtype));
  }
}

coll::Plan alltoallvPlan(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm) {
  if (isInter(comm))
    return interAlltoallvPlan(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  Communicator& c = commArg(comm);
  const Datatype* st =
      sendbuf == MPI_IN_PLACE ? nullptr : vectorArgs(c, sendbuf, sendcounts, sdispls, sendtype, "send");
  const Datatype* rt = vectorArgs(c, recvbuf, recvcounts, rdispls, recvtype, "recv");
  if (recvbuf == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE");
  return coll::planAlltoallv(c, sendbuf, sendcounts, sdispls, st, recvbuf, recvcounts, rdispls, *rt);
}

coll::Plan alltoallwPlan(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (isInter(comm))
    return interAlltoallwPlan(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  Communicator& c = commArg(comm);
  const auto p = static_cast<std::size_t>(c.size());
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  std::vector<const Datatype*> st(p, nullptr), rt(p, nullptr);
  if (!inPlace) {
    countsArg(c, sendcounts, "sendcounts");
    displacementsArg(sdispls, "send displacements");
    pointerArg(sendtypes, "sendtypes");
  }
  countsArg(c, recvcounts, "recvcounts");
  displacementsArg(rdispls, "receive displacements");
  pointerArg(recvtypes, "recvtypes");
  if (recvbuf == MPI_IN_PLACE) fail(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE");
  for (std::size_t i = 0; i < p; ++i) {
    if (!inPlace) {
      st[i] = &typeArg(sendtypes[i]);
      bufferArg(sendbuf, sendcounts[i], *st[i]);
    }
    rt[i] = &typeArg(recvtypes[i]);
    bufferArg(recvbuf, recvcounts[i], *rt[i]);
  }
  return coll::planAlltoallw(c, sendbuf, sendcounts, sdispls, st.data(), recvbuf, recvcounts, rdispls, rt.data());
}

}  // namespace zmpi::mpi::capi
