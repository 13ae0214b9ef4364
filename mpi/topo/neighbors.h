#pragma once
// Who a process exchanges with in a neighbor collective, in the standard's order, and
// which Channel step each message travels on.
//  - Cartesian: for each dimension, the neighbor at -1 then at +1 (MPI_PROC_NULL past an
//    open edge), as sources and as destinations. A block sent towards +1 arrives in the
//    receiver's -1 slot; steps carry the direction, so this holds even when both
//    neighbors are the same rank (a periodic dimension of extent 1 or 2).
//  - Graph: the node's neighbors, both ways; dist graph: its sources and destinations.
//    Step 0 throughout: repeated neighbors pair up in order, by non-overtaking.
#include <vector>

#include "mpi/comm/communicator.h"

namespace zmpi::mpi {

struct NeighborLists {
  std::vector<int> sources;
  std::vector<int> recvSteps;  // the step the message from sources[i] travels on
  std::vector<int> destinations;
  std::vector<int> sendSteps;
};

// MPI_ERR_TOPOLOGY when the communicator has no topology.
NeighborLists neighborListsOf(const Communicator& comm);

}  // namespace zmpi::mpi
