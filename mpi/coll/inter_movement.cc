// Intercommunicator data movement (inter.h): barrier, bcast, gather(v), scatter(v),
// allgather(v), alltoall(v/w), each one round of direct transfers over the bridge.
#include <mpi.h>

#include "mpi/coll/inter.h"
#include "mpi/coll/inter_buffers.h"

namespace zmpi::mpi::coll {
namespace {

// A schedule over the bridge that keeps the intercommunicator (and so the bridge) alive
// until it is done: MPI_Comm_free may come while a nonblocking call is pending.
Plan bridgeSchedule(Communicator& inter) {
  auto s = std::make_unique<Schedule>(*inter.bridge);
  s->hold(&inter);
  return s;
}

int remoteSize(Communicator& inter) { return inter.remoteGroup().size(); }

std::size_t elements(int count) { return static_cast<std::size_t>(count); }

// The alltoall family's one round: block j (at byte displacement j of each buffer, of its
// own count and type) to and from remote rank j.
Plan exchangeWithEveryRemote(Communicator& inter, const void* sendbuf, const int* sendcounts,
                             const std::ptrdiff_t* sdispls, const Datatype* const* sendtypes, void* recvbuf,
                             const int* recvcounts, const std::ptrdiff_t* rdispls, const Datatype* const* recvtypes) {
  Plan s = bridgeSchedule(inter);
  std::vector<Incoming> received;
  for (int j = 0; j < remoteSize(inter); ++j) {
    received.push_back(incoming(*s, static_cast<char*>(recvbuf) + rdispls[j], elements(recvcounts[j]), *recvtypes[j]));
    s->recv(inter.bridgeRankOfRemote(j), 0, received.back().data, received.back().bytes);
    const Outgoing out =
        outgoing(*s, static_cast<const char*>(sendbuf) + sdispls[j], elements(sendcounts[j]), *sendtypes[j]);
    s->send(inter.bridgeRankOfRemote(j), 0, out.data, out.bytes);
  }
  settle(*s, received);
  return s;
}

}  // namespace

// A barrier over both groups at once: no process leaves before every process of the
// other group (and of its own) entered, which is all MPI asks of an intercommunicator's.
Plan planInterBarrier(Communicator& inter) {
  Plan s = planBarrier(*inter.bridge);
  s->hold(&inter);
  return s;
}

Plan planInterBcast(Communicator& inter, void* buffer, int count, const Datatype* type, int root) {
  Plan s = bridgeSchedule(inter);
  if (root == MPI_ROOT) {
    const Outgoing out = outgoing(*s, buffer, elements(count), *type);
    for (int j = 0; j < remoteSize(inter); ++j) s->send(inter.bridgeRankOfRemote(j), 0, out.data, out.bytes);
  } else if (root != MPI_PROC_NULL) {
    const Incoming in = incoming(*s, buffer, elements(count), *type);
    s->recv(inter.bridgeRankOfRemote(root), 0, in.data, in.bytes);
    settle(*s, {in});
  }
  return s;
}

Plan planInterGather(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                     int recvcount, const Datatype* recvtype, int root) {
  // The uniform layout (looked at by the root only; cheap enough to build everywhere).
  std::vector<int> counts(static_cast<std::size_t>(remoteSize(inter)), recvcount), displs(counts.size());
  for (std::size_t j = 0; j < displs.size(); ++j) displs[j] = static_cast<int>(j) * recvcount;
  return planInterGatherv(inter, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, root);
}

Plan planInterGatherv(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                      const int* recvcounts, const int* displs, const Datatype* recvtype, int root) {
  Plan s = bridgeSchedule(inter);
  if (root == MPI_ROOT) {
    std::vector<Incoming> received;
    for (int j = 0; j < remoteSize(inter); ++j) {
      received.push_back(incoming(*s, blockAt(recvbuf, displs[j], *recvtype), elements(recvcounts[j]), *recvtype));
      s->recv(inter.bridgeRankOfRemote(j), 0, received.back().data, received.back().bytes);
    }
    settle(*s, received);
  } else if (root != MPI_PROC_NULL) {
    const Outgoing out = outgoing(*s, sendbuf, elements(sendcount), *sendtype);
    s->send(inter.bridgeRankOfRemote(root), 0, out.data, out.bytes);
  }
  return s;
}

Plan planInterScatter(Communicator& inter, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                      int recvcount, const Datatype* recvtype, int root) {
  // The uniform layout (looked at by the root only; cheap enough to build everywhere).
  std::vector<int> counts(static_cast<std::size_t>(remoteSize(inter)), sendcount), displs(counts.size());
  for (std::size_t j = 0; j < displs.size(); ++j) displs[j] = static_cast<int>(j) * sendcount;
  return planInterScatterv(inter, sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount, recvtype, root);
}

Plan planInterScatterv(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* displs,
                       const Datatype* sendtype, void* recvbuf, int recvcount, const Datatype* recvtype, int root) {
  Plan s = bridgeSchedule(inter);
  if (root == MPI_ROOT) {
    for (int j = 0; j < remoteSize(inter); ++j) {
      const Outgoing out = outgoing(*s, blockAt(sendbuf, displs[j], *sendtype), elements(sendcounts[j]), *sendtype);
      s->send(inter.bridgeRankOfRemote(j), 0, out.data, out.bytes);
    }
  } else if (root != MPI_PROC_NULL) {
    const Incoming in = incoming(*s, recvbuf, elements(recvcount), *recvtype);
    s->recv(inter.bridgeRankOfRemote(root), 0, in.data, in.bytes);
    settle(*s, {in});
  }
  return s;
}

Plan planInterAllgather(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype,
                        void* recvbuf, int recvcount, const Datatype& recvtype) {
  std::vector<int> counts(static_cast<std::size_t>(remoteSize(inter)), recvcount), displs(counts.size());
  for (std::size_t j = 0; j < displs.size(); ++j) displs[j] = static_cast<int>(j) * recvcount;
  return planInterAllgatherv(inter, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype);
}

Plan planInterAllgatherv(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype,
                         void* recvbuf, const int* recvcounts, const int* displs, const Datatype& recvtype) {
  Plan s = bridgeSchedule(inter);
  const Outgoing out = outgoing(*s, sendbuf, elements(sendcount), sendtype);
  std::vector<Incoming> received;
  for (int j = 0; j < remoteSize(inter); ++j) {
    received.push_back(incoming(*s, blockAt(recvbuf, displs[j], recvtype), elements(recvcounts[j]), recvtype));
    s->recv(inter.bridgeRankOfRemote(j), 0, received.back().data, received.back().bytes);
    s->send(inter.bridgeRankOfRemote(j), 0, out.data, out.bytes);
  }
  settle(*s, received);
  return s;
}

Plan planInterAlltoall(Communicator& inter, const void* sendbuf, int sendcount, const Datatype& sendtype, void* recvbuf,
                       int recvcount, const Datatype& recvtype) {
  const auto m = static_cast<std::size_t>(remoteSize(inter));
  std::vector<int> sendcounts(m, sendcount), sdispls(m), recvcounts(m, recvcount), rdispls(m);
  for (std::size_t j = 0; j < m; ++j) {
    sdispls[j] = static_cast<int>(j) * sendcount;
    rdispls[j] = static_cast<int>(j) * recvcount;
  }
  return planInterAlltoallv(inter, sendbuf, sendcounts.data(), sdispls.data(), sendtype, recvbuf, recvcounts.data(),
                            rdispls.data(), recvtype);
}

Plan planInterAlltoallv(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* sdispls,
                        const Datatype& sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                        const Datatype& recvtype) {
  // As alltoallw with the same type everywhere, displacements in bytes (as ptrdiff_t: an
  // element displacement times the extent may pass INT_MAX).
  const auto m = static_cast<std::size_t>(remoteSize(inter));
  std::vector<std::ptrdiff_t> sbytes(m), rbytes(m);
  std::vector<const Datatype*> stypes(m, &sendtype), rtypes(m, &recvtype);
  for (std::size_t j = 0; j < m; ++j) {
    sbytes[j] = static_cast<std::ptrdiff_t>(sdispls[j]) * sendtype.extent();
    rbytes[j] = static_cast<std::ptrdiff_t>(rdispls[j]) * recvtype.extent();
  }
  return exchangeWithEveryRemote(inter, sendbuf, sendcounts, sbytes.data(), stypes.data(), recvbuf, recvcounts,
                                 rbytes.data(), rtypes.data());
}

Plan planInterAlltoallw(Communicator& inter, const void* sendbuf, const int* sendcounts, const int* sdispls,
                        const Datatype* const* sendtypes, void* recvbuf, const int* recvcounts, const int* rdispls,
                        const Datatype* const* recvtypes) {
  const auto m = static_cast<std::size_t>(remoteSize(inter));
  const std::vector<std::ptrdiff_t> sbytes(sdispls, sdispls + m), rbytes(rdispls, rdispls + m);
  return exchangeWithEveryRemote(inter, sendbuf, sendcounts, sbytes.data(), sendtypes, recvbuf, recvcounts,
                                 rbytes.data(), recvtypes);
}

}  // namespace zmpi::mpi::coll
