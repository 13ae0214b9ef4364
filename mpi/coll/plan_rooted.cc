// Plans of the rooted data-movement collectives (and the barrier): bcast, gather(v),
// scatter(v). Bytes move as layout.h describes; the algorithms are in their own files.
#include <mpi.h>

#include "mpi/coll/barrier.h"
#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/bcast_scatter_allgather.h"
#include "mpi/coll/collectives.h"
#include "mpi/coll/gather_binomial.h"
#include "mpi/coll/gather_linear.h"
#include "mpi/coll/layout.h"
#include "mpi/coll/scatter_binomial.h"
#include "mpi/coll/scatter_linear.h"
#include "mpi/coll/select.h"

namespace zmpi::mpi::coll {
namespace {

// This rank's own contribution (gather) or destination (scatter): one part.
struct Own {
  std::vector<Part> parts;
  Area area;
};

Own ownArea(Schedule& s, const void* buffer, int count, const Datatype& type) {
  Own own;
  own.parts = uniformParts(type, static_cast<std::size_t>(count), 1);
  own.area = areaFor(s, buffer, own.parts);
  return own;
}

// Gather and gatherv differ only in the root's parts and the choice of algorithm.
Plan planGatherInto(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                    const std::vector<Part>& rootParts, bool uniform, int root) {
  auto s = std::make_unique<Schedule>(comm);
  const bool isRoot = comm.rank() == root;
  const bool inPlace = isRoot && sendbuf == MPI_IN_PLACE;
  Area all;
  if (isRoot) all = areaFor(*s, recvbuf, rootParts);
  const char* mine = nullptr;
  std::size_t myBytes = 0;
  if (inPlace) {
    pack(*s, all, recvbuf, rootParts, root);
    mine = all.at(static_cast<std::size_t>(root));
    myBytes = rootParts[static_cast<std::size_t>(root)].bytes();
  } else {
    Own own = ownArea(*s, sendbuf, sendcount, *sendtype);
    pack(*s, own.area, sendbuf, own.parts);
    mine = own.area.data;
    myBytes = own.parts[0].bytes();
  }
  const std::size_t total = myBytes * static_cast<std::size_t>(comm.size());
  if (uniform && selectGather(total, comm.size()) == RootedAlgorithm::Binomial) {
    gatherBinomial(*s, mine, all.data, myBytes, root);
  } else {
    gatherLinear(*s, mine, myBytes, all.data, all.pieces, root);
  }
  if (isRoot) unpack(*s, all, recvbuf, rootParts, inPlace ? root : -1);
  return s;
}

Plan planScatterFrom(Communicator& comm, const void* sendbuf, const std::vector<Part>& rootParts, void* recvbuf,
                     int recvcount, const Datatype* recvtype, bool uniform, int root) {
  auto s = std::make_unique<Schedule>(comm);
  const bool isRoot = comm.rank() == root;
  const bool inPlace = isRoot && recvbuf == MPI_IN_PLACE;
  Area all;
  if (isRoot) {
    all = areaFor(*s, sendbuf, rootParts);
    pack(*s, all, sendbuf, rootParts);
  }
  Own own;
  char* mine = nullptr;
  std::size_t myBytes = isRoot ? rootParts[static_cast<std::size_t>(root)].bytes() : 0;
  if (!inPlace) {
    own = ownArea(*s, recvbuf, recvcount, *recvtype);
    mine = own.area.data;
    myBytes = own.parts[0].bytes();
  }
  const std::size_t total = myBytes * static_cast<std::size_t>(comm.size());
  if (uniform && selectScatter(total, comm.size()) == RootedAlgorithm::Binomial) {
    scatterBinomial(*s, all.data, mine, myBytes, root);
  } else {
    scatterLinear(*s, all.data, all.pieces, mine, myBytes, root);
  }
  if (!inPlace) unpack(*s, own.area, recvbuf, own.parts);
  return s;
}

}  // namespace

Plan planBarrier(Communicator& comm) {
  auto s = std::make_unique<Schedule>(comm);
  barrierDissemination(*s);
  return s;
}

Plan planBcast(Communicator& comm, void* buffer, int count, const Datatype& type, int root) {
  auto s = std::make_unique<Schedule>(comm);
  s->setSegmentBytes(segmentBytes(comm));
  const Own own = ownArea(*s, buffer, count, type);
  const std::size_t bytes = own.parts[0].bytes();
  if (comm.rank() == root) pack(*s, own.area, buffer, own.parts);
  if (selectBcast(bytes, comm.size()) == BcastAlgorithm::ScatterAllgather) {
    bcastScatterAllgather(*s, own.area.data, bytes, root);
  } else {
    bcastBinomial(*s, own.area.data, bytes, root);
  }
  if (comm.rank() != root) unpack(*s, own.area, buffer, own.parts);
  return s;
}

Plan planGather(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                int recvcount, const Datatype* recvtype, int root) {
  std::vector<Part> parts;
  if (comm.rank() == root) parts = uniformParts(*recvtype, static_cast<std::size_t>(recvcount), comm.size());
  return planGatherInto(comm, sendbuf, sendcount, sendtype, recvbuf, parts, true, root);
}

Plan planGatherv(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 const int* recvcounts, const int* displs, const Datatype* recvtype, int root) {
  std::vector<Part> parts;
  if (comm.rank() == root) parts = variableParts(*recvtype, recvcounts, displs, comm.size());
  return planGatherInto(comm, sendbuf, sendcount, sendtype, recvbuf, parts, false, root);
}

Plan planScatter(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 int recvcount, const Datatype* recvtype, int root) {
  std::vector<Part> parts;
  if (comm.rank() == root) parts = uniformParts(*sendtype, static_cast<std::size_t>(sendcount), comm.size());
  return planScatterFrom(comm, sendbuf, parts, recvbuf, recvcount, recvtype, true, root);
}

Plan planScatterv(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* displs,
                  const Datatype* sendtype, void* recvbuf, int recvcount, const Datatype* recvtype, int root) {
  std::vector<Part> parts;
  if (comm.rank() == root) parts = variableParts(*sendtype, sendcounts, displs, comm.size());
  return planScatterFrom(comm, sendbuf, parts, recvbuf, recvcount, recvtype, false, root);
}

}  // namespace zmpi::mpi::coll
