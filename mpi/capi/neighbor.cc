// Neighbor collectives (MPI-3.1 section 7.6) and their nonblocking forms. Each call
// works out where its blocks sit, then runs one NeighborExchange (topo/neighbor_exchange.h)
// over the communicator's topology: blocking calls wait for it, I* calls return it as a
// request that advances under MPI_Test/MPI_Wait. ZMPI_NEIGHBOR_PAIR below defines each
// PMPI_Neighbor_X with its PMPI_Ineighbor_X (X = allgather, allgatherv, alltoall,
// alltoallv, alltoallw), since the two differ only in waiting.
#include <memory>
#include <string>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/topo/neighbor_exchange.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

struct Plan {
  NeighborLists lists;
  std::vector<NeighborBlock> sends;
  std::vector<NeighborBlock> recvs;
};

void* offset(const void* base, std::ptrdiff_t bytes) { return static_cast<char*>(const_cast<void*>(base)) + bytes; }

NeighborBlock block(const void* base, std::ptrdiff_t bytes, int count, Datatype& type, const char* name) {
  countArg(count, name);
  bufferArg(base, count, type);
  return {offset(base, bytes), count, &type};
}

// Per-neighbor counts and displacements (in units of `type`'s extent), as the v forms
// take them.
std::vector<NeighborBlock> varyingBlocks(const void* base, const int counts[], const int displs[], Datatype& type,
                                         std::size_t n, const char* countsName, const char* displsName) {
  std::vector<NeighborBlock> blocks;
  if (n > 0) {
    pointerArg(counts, countsName);
    pointerArg(displs, displsName);
  }
  for (std::size_t i = 0; i < n; ++i) {
    blocks.push_back(block(base, displs[i] * type.extent(), counts[i], type, countsName));
  }
  return blocks;
}

// Runs the plan: blocking when `request` is null, else hands out a request.
template <typename MakePlan>
int run(const char* call, MPI_Comm comm, MPI_Request* request, bool nonblocking, MakePlan&& makePlan) {
  return guardedComm(call, comm, [&] {
    Communicator& c = commArg(comm);
    if (nonblocking) pointerArg(request, "request");
    Plan plan = makePlan(c);
    auto exchange = std::make_unique<NeighborExchange>(c, plan.lists, std::move(plan.sends), std::move(plan.recvs));
    if (nonblocking) {
      *request = makeNeighborRequest(c, std::move(exchange))->handle();
    } else {
      exchange->wait();
    }
    return MPI_SUCCESS;
  });
}

Plan allgatherPlan(Communicator& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, const int* recvcounts, const int* displs, MPI_Datatype recvtype) {
  Plan plan{neighborListsOf(c), {}, {}};
  Datatype& st = typeArg(sendtype);
  Datatype& rt = typeArg(recvtype);
  const NeighborBlock out = block(sendbuf, 0, sendcount, st, "sendcount");
  plan.sends.assign(plan.lists.destinations.size(), out);
  if (recvcounts == nullptr) {
    for (std::size_t i = 0; i < plan.lists.sources.size(); ++i) {
      plan.recvs.push_back(
          block(recvbuf, static_cast<std::ptrdiff_t>(i) * recvcount * rt.extent(), recvcount, rt, "recvcount"));
    }
  } else {
    plan.recvs = varyingBlocks(recvbuf, recvcounts, displs, rt, plan.lists.sources.size(), "recvcounts", "displs");
  }
  return plan;
}

Plan alltoallPlan(Communicator& c, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype) {
  Plan plan{neighborListsOf(c), {}, {}};
  Datatype& st = typeArg(sendtype);
  Datatype& rt = typeArg(recvtype);
  for (std::size_t j = 0; j < plan.lists.destinations.size(); ++j) {
    plan.sends.push_back(
        block(sendbuf, static_cast<std::ptrdiff_t>(j) * sendcount * st.extent(), sendcount, st, "sendcount"));
  }
  for (std::size_t i = 0; i < plan.lists.sources.size(); ++i) {
    plan.recvs.push_back(
        block(recvbuf, static_cast<std::ptrdiff_t>(i) * recvcount * rt.extent(), recvcount, rt, "recvcount"));
  }
  return plan;
}

Plan alltoallvPlan(Communicator& c, const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype) {
  Plan plan{neighborListsOf(c), {}, {}};
  plan.sends = varyingBlocks(sendbuf, sendcounts, sdispls, typeArg(sendtype), plan.lists.destinations.size(),
                             "sendcounts", "sdispls");
  plan.recvs = varyingBlocks(recvbuf, recvcounts, rdispls, typeArg(recvtype), plan.lists.sources.size(), "recvcounts",
                             "rdispls");
  return plan;
}

// Byte displacements and a datatype per neighbor.
std::vector<NeighborBlock> typedBlocks(const void* base, const int counts[], const MPI_Aint displs[],
                                       const MPI_Datatype types[], std::size_t n, const char* countsName) {
  std::vector<NeighborBlock> blocks;
  if (n > 0) {
    pointerArg(counts, countsName);
    pointerArg(displs, "displacements");
    pointerArg(types, "types");
  }
  for (std::size_t i = 0; i < n; ++i)
    blocks.push_back(block(base, displs[i], counts[i], typeArg(types[i]), countsName));
  return blocks;
}

Plan alltoallwPlan(Communicator& c, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                   const MPI_Datatype recvtypes[]) {
  Plan plan{neighborListsOf(c), {}, {}};
  plan.sends = typedBlocks(sendbuf, sendcounts, sdispls, sendtypes, plan.lists.destinations.size(), "sendcounts");
  plan.recvs = typedBlocks(recvbuf, recvcounts, rdispls, recvtypes, plan.lists.sources.size(), "recvcounts");
  return plan;
}

}  // namespace

extern "C" {

#define ZMPI_NEIGHBOR_PAIR(Name, Params, Args, PlanCall)                                                \
  int PMPI_Neighbor_##Name Params {                                                                     \
    return run("MPI_Neighbor_" #Name, comm, nullptr, false, [&](Communicator& c) { return PlanCall; }); \
  }                                                                                                     \
  ZMPI_ALIAS(MPI_Neighbor_##Name)                                                                       \
  int PMPI_Ineighbor_##Name Args {                                                                      \
    return run("MPI_Ineighbor_" #Name, comm, request, true, [&](Communicator& c) { return PlanCall; }); \
  }                                                                                                     \
  ZMPI_ALIAS(MPI_Ineighbor_##Name)

ZMPI_NEIGHBOR_PAIR(allgather,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm),
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
                   allgatherPlan(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype))

ZMPI_NEIGHBOR_PAIR(allgatherv,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
                   allgatherPlan(c, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype))

ZMPI_NEIGHBOR_PAIR(alltoall,
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm),
                   (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
                   alltoallPlan(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))

ZMPI_NEIGHBOR_PAIR(alltoallv,
                   (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                   (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request),
                   alltoallvPlan(c, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype))

ZMPI_NEIGHBOR_PAIR(alltoallw,
                   (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm),
                   (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request),
                   alltoallwPlan(c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes))

#undef ZMPI_NEIGHBOR_PAIR

}  // extern "C"
