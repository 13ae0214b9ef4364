// Plans of the all-to-all data-movement collectives: allgather(v), alltoall(v, w).
#include <mpi.h>

#include "mpi/coll/allgather_bruck.h"
#include "mpi/coll/allgather_recursive_doubling.h"
#include "mpi/coll/allgather_ring.h"
#include "mpi/coll/alltoall_pairwise.h"
#include "mpi/coll/alltoall_pairwise_in_place.h"
#include "mpi/coll/collectives.h"
#include "mpi/coll/layout.h"
#include "mpi/coll/reduction.h"
#include "mpi/coll/select.h"

namespace zmpi::mpi::coll {
namespace {

// Puts this rank's contribution into its part of the gathered area: from the send buffer,
// or (MPI_IN_PLACE) from where the receive buffer already holds it.
void placeOwn(Schedule& s, const Area& all, void* recvbuf, const std::vector<Part>& parts, const void* sendbuf,
              int sendcount, const Datatype* sendtype) {
  const auto r = static_cast<std::size_t>(s.rank());
  if (sendbuf == MPI_IN_PLACE) {
    pack(s, all, recvbuf, parts, s.rank());
    return;
  }
  const std::vector<Part> own = uniformParts(*sendtype, static_cast<std::size_t>(sendcount), 1);
  const Area area = areaFor(s, sendbuf, own);
  pack(s, area, sendbuf, own);
  copyBytes(s, area.data, all.at(r), parts[r].bytes());
}

Plan planAllgatherParts(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                        const std::vector<Part>& parts, bool uniform) {
  auto s = std::make_unique<Schedule>(comm);
  s->setSegmentBytes(segmentBytes(comm));
  const Area all = areaFor(*s, recvbuf, parts);
  placeOwn(*s, all, recvbuf, parts, sendbuf, sendcount, sendtype);
  std::size_t total = 0;
  for (const Part& part : parts) total += part.bytes();
  const AllgatherAlgorithm algorithm = uniform ? selectAllgather(total, comm.size()) : AllgatherAlgorithm::Ring;
  const std::size_t block = parts[0].bytes();
  switch (algorithm) {
    case AllgatherAlgorithm::RecursiveDoubling:
      allgatherRecursiveDoubling(*s, all.data, block);
      break;
    case AllgatherAlgorithm::Bruck:
      allgatherBruck(*s, all.data, block);
      break;
    case AllgatherAlgorithm::Ring:
      allgatherRing(*s, all.data, all.pieces);
      break;
  }
  unpack(*s, all, recvbuf, parts, sendbuf == MPI_IN_PLACE ? comm.rank() : -1);
  return s;
}

Plan planAlltoallParts(Communicator& comm, const void* sendbuf, const std::vector<Part>& sendParts, void* recvbuf,
                       const std::vector<Part>& recvParts) {
  auto s = std::make_unique<Schedule>(comm);
  s->setSegmentBytes(segmentBytes(comm));
  const Area recv = areaFor(*s, recvbuf, recvParts);
  if (sendbuf == MPI_IN_PLACE) {
    // Blocks swap in place through a temporary of a few pieces (not a copy of the buffer).
    pack(*s, recv, recvbuf, recvParts);
    alltoallPairwiseInPlace(*s, recv.data, recv.pieces, Reduction::kCombinePieces * s->segmentBytes());
  } else {
    const Area send = areaFor(*s, sendbuf, sendParts);
    pack(*s, send, sendbuf, sendParts);
    alltoallPairwise(*s, send.data, send.pieces, recv.data, recv.pieces);
  }
  unpack(*s, recv, recvbuf, recvParts);
  return s;
}

}  // namespace

Plan planAllgather(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                   int recvcount, const Datatype& recvtype) {
  return planAllgatherParts(comm, sendbuf, sendcount, sendtype, recvbuf,
                            uniformParts(recvtype, static_cast<std::size_t>(recvcount), comm.size()), true);
}

Plan planAllgatherv(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                    const int* recvcounts, const int* displs, const Datatype& recvtype) {
  return planAllgatherParts(comm, sendbuf, sendcount, sendtype, recvbuf,
                            variableParts(recvtype, recvcounts, displs, comm.size()), false);
}

Plan planAlltoall(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype) {
  std::vector<Part> sendParts;
  if (sendbuf != MPI_IN_PLACE) sendParts = uniformParts(*sendtype, static_cast<std::size_t>(sendcount), comm.size());
  return planAlltoallParts(comm, sendbuf, sendParts, recvbuf,
                           uniformParts(recvtype, static_cast<std::size_t>(recvcount), comm.size()));
}

Plan planAlltoallv(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* sdispls,
                   const Datatype* sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                   const Datatype& recvtype) {
  std::vector<Part> sendParts;
  if (sendbuf != MPI_IN_PLACE) sendParts = variableParts(*sendtype, sendcounts, sdispls, comm.size());
  return planAlltoallParts(comm, sendbuf, sendParts, recvbuf,
                           variableParts(recvtype, recvcounts, rdispls, comm.size()));
}

Plan planAlltoallw(Communicator& comm, const void* sendbuf, const int* sendcounts, const int* sdispls,
                   const Datatype* const* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                   const Datatype* const* recvtypes) {
  const auto p = static_cast<std::size_t>(comm.size());
  std::vector<Part> sendParts, recvParts;
  for (std::size_t i = 0; i < p; ++i) {
    if (sendbuf != MPI_IN_PLACE) {
      sendParts.push_back({sendtypes[i], static_cast<std::size_t>(sendcounts[i]), sdispls[i]});
    }
    recvParts.push_back({recvtypes[i], static_cast<std::size_t>(recvcounts[i]), rdispls[i]});
  }
  return planAlltoallParts(comm, sendbuf, sendParts, recvbuf, recvParts);
}

}  // namespace zmpi::mpi::coll
