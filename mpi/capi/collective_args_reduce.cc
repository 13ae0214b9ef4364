// Argument checks of the reductions (see collective_args.h).
#include <numeric>
#include <vector>

#include "mpi/capi/collective_args.h"
#include "mpi/capi/collective_args_inter.h"
#include "mpi/capi/collective_validate.h"
#include "mpi/coll/direct.h"
#include "mpi/coll/shm_collectives.h"

namespace zmpi::mpi::capi {
namespace {

// What allreduce, scan and exscan share: every rank's send buffer may be MPI_IN_PLACE.
struct Operands {
  Communicator& comm;
  const Datatype& type;
  const Op& op;
};

Operands everyRankInPlace(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(count);
  const Datatype& type = typeArg(datatype);
  const Op& o = opArg(op, type);
  dataArg(recvbuf, count, type, "recvbuf");
  if (sendbuf != MPI_IN_PLACE) bufferArg(sendbuf, count, type);
  distinctArg(sendbuf, recvbuf, count);
  return {c, type, o};
}

Operands reduceArgs(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm) {
  Communicator& c = commArg(comm);
  countArg(count);
  const Datatype& type = typeArg(datatype);
  const Op& o = opArg(op, type);
  rootArg(c, root);
  if (c.rank() == root) {
    dataArg(recvbuf, count, type, "recvbuf");
    if (sendbuf != MPI_IN_PLACE) bufferArg(sendbuf, count, type);
    distinctArg(sendbuf, recvbuf, count);
  } else {
    dataArg(sendbuf, count, type, "sendbuf");
  }
  return {c, type, o};
}

}  // namespace

coll::Plan reducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                      MPI_Comm comm) {
  if (isInter(comm)) return interReducePlan(sendbuf, recvbuf, count, datatype, op, root, comm);
  const Operands args = reduceArgs(sendbuf, recvbuf, count, datatype, op, root, comm);
  return coll::planReduce(args.comm, sendbuf, recvbuf, count, args.type, args.op, root);
}

void runReduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  if (isInter(comm)) return coll::run(*interReducePlan(sendbuf, recvbuf, count, datatype, op, root, comm));
  const Operands args = reduceArgs(sendbuf, recvbuf, count, datatype, op, root, comm);
  if (!coll::reduceShm(args.comm, sendbuf, recvbuf, count, args.type, args.op, root) &&
      !coll::reduceDirect(args.comm, sendbuf, recvbuf, count, args.type, args.op, root)) {
    coll::run(*coll::planReduce(args.comm, sendbuf, recvbuf, count, args.type, args.op, root));
  }
}

coll::Plan allreducePlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  if (isInter(comm)) return interAllreducePlan(sendbuf, recvbuf, count, datatype, op, comm);
  const Operands args = everyRankInPlace(sendbuf, recvbuf, count, datatype, op, comm);
  return coll::planAllreduce(args.comm, sendbuf, recvbuf, count, args.type, args.op);
}

void runAllreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (isInter(comm)) return coll::run(*interAllreducePlan(sendbuf, recvbuf, count, datatype, op, comm));
  const Operands args = everyRankInPlace(sendbuf, recvbuf, count, datatype, op, comm);
  if (!coll::allreduceShm(args.comm, sendbuf, recvbuf, count, args.type, args.op) &&
      !coll::allreduceDirect(args.comm, sendbuf, recvbuf, count, args.type, args.op)) {
    coll::run(*coll::planAllreduce(args.comm, sendbuf, recvbuf, count, args.type, args.op));
  }
}

coll::Plan reduceScatterPlan(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm) {
  if (isInter(comm)) return interReduceScatterPlan(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  Communicator& c = commArg(comm);
  countsArg(c, recvcounts, "recvcounts");
  const Datatype& type = typeArg(datatype);
  const Op& o = opArg(op, type);
  const long total = std::accumulate(recvcounts, recvcounts + c.size(), 0L);
  if (total > INT_MAX) fail(MPI_ERR_COUNT, "recvcounts add up to more than INT_MAX elements");
  const int mine = recvcounts[c.rank()];
  dataArg(recvbuf, sendbuf == MPI_IN_PLACE ? static_cast<int>(total) : mine, type, "recvbuf");
  if (sendbuf != MPI_IN_PLACE) bufferArg(sendbuf, static_cast<int>(total), type);
  distinctArg(sendbuf, recvbuf, static_cast<int>(total));
  return coll::planReduceScatter(c, sendbuf, recvbuf, recvcounts, type, o);
}

coll::Plan reduceScatterBlockPlan(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm) {
  if (isInter(comm)) return interReduceScatterBlockPlan(sendbuf, recvbuf, recvcount, datatype, op, comm);
  Communicator& c = commArg(comm);
  countArg(recvcount, "recvcount");
  const std::vector<int> counts(static_cast<std::size_t>(c.size()), recvcount);
  return reduceScatterPlan(sendbuf, recvbuf, counts.data(), datatype, op, comm);
}

// Scans order ranks within one group: the standard defines none on intercommunicators.
coll::Plan scanPlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  intraCommArg(comm);
  const Operands args = everyRankInPlace(sendbuf, recvbuf, count, datatype, op, comm);
  return coll::planScan(args.comm, sendbuf, recvbuf, count, args.type, args.op);
}

coll::Plan exscanPlan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  intraCommArg(comm);
  const Operands args = everyRankInPlace(sendbuf, recvbuf, count, datatype, op, comm);
  return coll::planExscan(args.comm, sendbuf, recvbuf, count, args.type, args.op);
}

}  // namespace zmpi::mpi::capi
