// MPI_Intercomm_create and MPI_Intercomm_merge (MPI-3.1 6.6.2). The constructors are
// comm/intercomm.h; this file checks arguments and carries the local leaders' exchange
// over the peer communicator, which is point-to-point traffic with the program's tag.
#include "mpi/comm/intercomm.h"

#include <memory>
#include <string>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// The leaders' exchange: each sends its length, then its ints, and receives the other's
// (Sendrecv, so the two leaders never both wait in a send). Runs at the local leader only,
// where the standard makes peer_comm and remote_leader significant.
LeaderExchange exchangeThrough(Communicator& local, MPI_Comm peerComm, int remoteLeader, int tag) {
  return [=, &local](const std::vector<int>& mine) {
    if (peerComm == MPI_COMM_NULL) fail(MPI_ERR_COMM, "peer_comm is MPI_COMM_NULL at the local leader");
    Communicator& peer = *communicatorOf(peerComm);
    if (peer.isInter()) fail(MPI_ERR_COMM, "peer_comm is an intercommunicator");
    if (remoteLeader < 0 || remoteLeader >= peer.size()) {
      fail(MPI_ERR_RANK, "remote_leader " + std::to_string(remoteLeader) + " is not a rank of peer_comm (size " +
                             std::to_string(peer.size()) + ")");
    }
    // A remote leader inside the local group would never take part in the exchange (it
    // waits for its own leader): refuse it rather than wait forever.
    if (local.group().rankOfWorld(peer.worldRankOf(remoteLeader)) != MPI_UNDEFINED) {
      fail(MPI_ERR_RANK, "remote_leader " + std::to_string(remoteLeader) +
                             " of peer_comm is a member of the local group, not of the remote one");
    }
    sendTagArg(tag);
    int lengths[2] = {static_cast<int>(mine.size()), 0};
    int rc = PMPI_Sendrecv(&lengths[0], 1, MPI_INT, remoteLeader, tag, &lengths[1], 1, MPI_INT, remoteLeader, tag,
                           peerComm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) fail(rc, "the exchange with the remote leader failed");
    if (lengths[1] < 0) fail(MPI_ERR_INTERN, "the remote leader sent a negative length");
    std::vector<int> theirs(static_cast<std::size_t>(lengths[1]));
    rc = PMPI_Sendrecv(mine.data(), lengths[0], MPI_INT, remoteLeader, tag, theirs.data(), lengths[1], MPI_INT,
                       remoteLeader, tag, peerComm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) fail(rc, "the exchange with the remote leader failed");
    return theirs;
  };
}

}  // namespace

extern "C" {

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm* newintercomm) {
  return guardedComm("MPI_Intercomm_create", local_comm, [&] {
    Communicator& local = intraCommArg(local_comm);
    pointerArg(newintercomm, "newintercomm");
    if (local_leader < 0 || local_leader >= local.size()) {
      fail(MPI_ERR_RANK, "local_leader " + std::to_string(local_leader) + " is not a rank of local_comm (size " +
                             std::to_string(local.size()) + ")");
    }
    std::unique_ptr<Communicator> inter =
        createIntercomm(local, local_leader, exchangeThrough(local, peer_comm, remote_leader, tag));
    *newintercomm = inter.release()->publish();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Intercomm_create)

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  return guardedComm("MPI_Intercomm_merge", intercomm, [&] {
    Communicator& inter = interCommArg(intercomm);
    pointerArg(newintracomm, "newintracomm");
    *newintracomm = mergeIntercomm(inter, high != 0).release()->publish();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Intercomm_merge)

}  // extern "C"
