// Argument checks of the intercommunicator collectives (see collective_args_inter.h).
#include "mpi/capi/collective_args_inter.h"

#include <climits>
#include <numeric>
#include <string>
#include <vector>

#include "mpi/capi/collective_validate.h"
#include "mpi/coll/inter.h"

namespace zmpi::mpi::capi {
namespace {

// Where the root is on an intercommunicator.
enum class Side { Root, RootsGroup, OtherGroup };

Side interRootArg(const Communicator& inter, int root) {
  if (root == MPI_ROOT) return Side::Root;
  if (root == MPI_PROC_NULL) return Side::RootsGroup;
  if (root < 0 || root >= inter.peerSize()) {
    fail(MPI_ERR_ROOT, "root " + std::to_string(root) +
                           " is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (size " +
                           std::to_string(inter.peerSize()) + ")");
  }
  return Side::OtherGroup;
}

void notInPlace(const void* buffer, const char* name) {
  if (buffer == MPI_IN_PLACE) {
    fail(MPI_ERR_BUFFER, std::string(name) + " is MPI_IN_PLACE, which an intercommunicator does not allow");
  }
}

const Datatype* sideArgs(const void* buffer, int count, MPI_Datatype type, const char* countName,
                         const char* bufferName) {
  notInPlace(buffer, bufferName);
  countArg(count, countName);
  const Datatype* t = &typeArg(type);
  bufferArg(buffer, count, *t);
  return t;
}

// A v-form's side: one count per remote process.
const Datatype* remoteVectorArgs(const Communicator& inter, const void* buffer, const int* counts, const int* displs,
                                 MPI_Datatype type, const char* side) {
  const std::string name(side);
  notInPlace(buffer, (name + "buf").c_str());
  if (counts == nullptr) fail(MPI_ERR_ARG, name + "counts is a null pointer");
  for (int j = 0; j < inter.peerSize(); ++j) countArg(counts[j], (name + "counts").c_str());
  displacementsArg(displs, (name + " displacements").c_str());
  const Datatype* t = &typeArg(type);
  int any = 0;
  for (int j = 0; j < inter.peerSize(); ++j) any |= counts[j] > 0;
  bufferArg(buffer, any, *t);
  return t;
}

struct ReduceArgs {
  Communicator& inter;
  const Datatype& type;
  const Op& op;
};

ReduceArgs reduceOperands(MPI_Comm comm, int count, MPI_Datatype datatype, MPI_Op op) {
  Communicator& c = commArg(comm);
  countArg(count);
  const Datatype& type = typeArg(datatype);
  return {c, type, opArg(op, type)};
}

}  // namespace

coll::Plan interBarrierPlan(MPI_Comm comm) { return coll::planInterBarrier(commArg(comm)); }

coll::Plan interBcastPlan(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Side side = interRootArg(c, root);
  const Datatype* t = side == Side::RootsGroup ? nullptr : sideArgs(buffer, count, datatype, "count", "buffer");
  return coll::planInterBcast(c, buffer, count, t, root);
}

coll::Plan interGatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Side side = interRootArg(c, root);
  const Datatype* st =
      side == Side::OtherGroup ? sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf") : nullptr;
  const Datatype* rt = side == Side::Root ? sideArgs(recvbuf, recvcount, recvtype, "recvcount", "recvbuf") : nullptr;
  return coll::planInterGather(c, sendbuf, sendcount, st, recvbuf, recvcount, rt, root);
}

coll::Plan interGathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Side side = interRootArg(c, root);
  const Datatype* st =
      side == Side::OtherGroup ? sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf") : nullptr;
  const Datatype* rt =
      side == Side::Root ? remoteVectorArgs(c, recvbuf, recvcounts, displs, recvtype, "recv") : nullptr;
  return coll::planInterGatherv(c, sendbuf, sendcount, st, recvbuf, recvcounts, displs, rt, root);
}

coll::Plan interScatterPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Side side = interRootArg(c, root);
  const Datatype* st = side == Side::Root ? sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf") : nullptr;
  const Datatype* rt =
      side == Side::OtherGroup ? sideArgs(recvbuf, recvcount, recvtype, "recvcount", "recvbuf") : nullptr;
  return coll::planInterScatter(c, sendbuf, sendcount, st, recvbuf, recvcount, rt, root);
}

coll::Plan interScattervPlan(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Side side = interRootArg(c, root);
  const Datatype* st =
      side == Side::Root ? remoteVectorArgs(c, sendbuf, sendcounts, displs, sendtype, "send") : nullptr;
  const Datatype* rt =
      side == Side::OtherGroup ? sideArgs(recvbuf, recvcount, recvtype, "recvcount", "recvbuf") : nullptr;
  return coll::planInterScatterv(c, sendbuf, sendcounts, displs, st, recvbuf, recvcount, rt, root);
}

coll::Plan interAllgatherPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Datatype* st = sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf");
  const Datatype* rt = sideArgs(recvbuf, recvcount, recvtype, "recvcount", "recvbuf");
  return coll::planInterAllgather(c, sendbuf, sendcount, *st, recvbuf, recvcount, *rt);
}

coll::Plan interAllgathervPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Datatype* st = sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf");
  const Datatype* rt = remoteVectorArgs(c, recvbuf, recvcounts, displs, recvtype, "recv");
  return coll::planInterAllgatherv(c, sendbuf, sendcount, *st, recvbuf, recvcounts, displs, *rt);
}

coll::Plan interAlltoallPlan(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Datatype* st = sideArgs(sendbuf, sendcount, sendtype, "sendcount", "sendbuf");
  const Datatype* rt = sideArgs(recvbuf, recvcount, recvtype, "recvcount", "recvbuf");
  return coll::planInterAlltoall(c, sendbuf, sendcount, *st, recvbuf, recvcount, *rt);
}

coll::Plan interAlltoallvPlan(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const Datatype* st = remoteVectorArgs(c, sendbuf, sendcounts, sdispls, sendtype, "send");
  const Datatype* rt = remoteVectorArgs(c, recvbuf, recvcounts, rdispls, recvtype, "recv");
  return coll::planInterAlltoallv(c, sendbuf, sendcounts, sdispls, *st, recvbuf, recvcounts, rdispls, *rt);
}

coll::Plan interAlltoallwPlan(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  Communicator& c = commArg(comm);
  const auto m = static_cast<std::size_t>(c.peerSize());
  notInPlace(sendbuf, "sendbuf");
  notInPlace(recvbuf, "recvbuf");
  pointerArg(sendcounts, "sendcounts");
  pointerArg(recvcounts, "recvcounts");
  displacementsArg(sdispls, "send displacements");
  displacementsArg(rdispls, "receive displacements");
  pointerArg(sendtypes, "sendtypes");
  pointerArg(recvtypes, "recvtypes");
  std::vector<const Datatype*> st(m), rt(m);
  for (std::size_t j = 0; j < m; ++j) {
    countArg(sendcounts[j], "sendcounts");
    countArg(recvcounts[j], "recvcounts");
    st[j] = &typeArg(sendtypes[j]);
    rt[j] = &typeArg(recvtypes[j]);
    bufferArg(sendbuf, sendcounts[j], *st[j]);
    bufferArg(recvbuf, recvcounts[j], *rt[j]);
  }
  return coll::planInterAlltoallw(c, sendbuf, sendcounts, sdispls, st.data(), recvbuf, recvcounts, rdispls, rt.data());
}

coll::Plan interReducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                           MPI_Comm comm) {
  const ReduceArgs a = reduceOperands(comm, count, datatype, op);
  const Side side = interRootArg(a.inter, root);
  if (side == Side::Root) sideArgs(recvbuf, count, datatype, "count", "recvbuf");
  if (side == Side::OtherGroup) sideArgs(sendbuf, count, datatype, "count", "sendbuf");
  return coll::planInterReduce(a.inter, sendbuf, recvbuf, count, a.type, a.op, root);
}

coll::Plan interAllreducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  const ReduceArgs a = reduceOperands(comm, count, datatype, op);
  sideArgs(sendbuf, count, datatype, "count", "sendbuf");
  sideArgs(recvbuf, count, datatype, "count", "recvbuf");
  return coll::planInterAllreduce(a.inter, sendbuf, recvbuf, count, a.type, a.op);
}

coll::Plan interReduceScatterPlan(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm) {
  const ReduceArgs a = reduceOperands(comm, 0, datatype, op);
  countsArg(a.inter, recvcounts, "recvcounts");  // one per local process
  const long total = std::accumulate(recvcounts, recvcounts + a.inter.size(), 0L);
  if (total > INT_MAX) fail(MPI_ERR_COUNT, "recvcounts add up to more than INT_MAX elements");
  sideArgs(sendbuf, static_cast<int>(total), datatype, "recvcounts", "sendbuf");
  sideArgs(recvbuf, recvcounts[a.inter.rank()], datatype, "recvcounts", "recvbuf");
  return coll::planInterReduceScatter(a.inter, sendbuf, recvbuf, recvcounts, a.type, a.op);
}

coll::Plan interReduceScatterBlockPlan(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(recvcount, "recvcount");
  const std::vector<int> counts(static_cast<std::size_t>(c.size()), recvcount);
  return interReduceScatterPlan(sendbuf, recvbuf, counts.data(), datatype, op, comm);
}

}  // namespace zmpi::mpi::capi
