#include "mpi/topo/neighbors.h"

#include "mpi/core/error.h"
#include "mpi/topo/cartesian.h"
#include "mpi/topo/graph.h"
#include "mpi/topo/topology.h"

namespace zmpi::mpi {

NeighborLists neighborListsOf(const Communicator& comm) {
  if (!comm.topology) fail(MPI_ERR_TOPOLOGY, "neighbor collective on a communicator without a topology");
  NeighborLists lists;
  if (const auto* grid = comm.topology->cartesian()) {
    for (int d = 0; d < grid->ndims(); ++d) {
      const CartShift shift = cartShift(*grid, comm.rank(), d, 1);
      // Slot 2d is the -1 neighbor (shift.source), slot 2d+1 the +1 neighbor. Step 2d
      // marks "sent towards -1", 2d+1 "sent towards +1": what reaches my -1 slot was sent
      // towards +1.
      lists.sources.insert(lists.sources.end(), {shift.source, shift.dest});
      lists.recvSteps.insert(lists.recvSteps.end(), {2 * d + 1, 2 * d});
      lists.destinations.insert(lists.destinations.end(), {shift.source, shift.dest});
      lists.sendSteps.insert(lists.sendSteps.end(), {2 * d, 2 * d + 1});
    }
  } else if (const auto* graph = comm.topology->graph()) {
    lists.sources = graphNeighbors(*graph, comm.rank());
    lists.destinations = lists.sources;
  } else {
    const DistGraphTopology& dist = *comm.topology->distGraph();
    lists.sources = dist.sources;
    lists.destinations = dist.destinations;
  }
  lists.recvSteps.resize(lists.sources.size(), 0);
  lists.sendSteps.resize(lists.destinations.size(), 0);
  return lists;
}

}  // namespace zmpi::mpi
