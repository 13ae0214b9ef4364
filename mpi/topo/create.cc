#include "mpi/topo/create.h"

#include <string>

#include "mpi/comm/constructors.h"
#include "mpi/core/error.h"
#include "mpi/topo/cartesian.h"

namespace zmpi::mpi {
namespace {

void requireFits(const Communicator& parent, int needed, const char* what) {
  if (needed > parent.size()) {
    fail(MPI_ERR_ARG, std::string(what) + " " + std::to_string(needed) + " exceeds the communicator's size " +
                          std::to_string(parent.size()));
  }
}

void requireRanks(const Communicator& parent, const std::vector<int>& ranks, const char* name) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= parent.size()) {
      fail(MPI_ERR_RANK, std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                             " is not a rank of the communicator (size " + std::to_string(parent.size()) + ")");
    }
  }
}

std::unique_ptr<Communicator> attach(std::unique_ptr<Communicator> comm, Topology topology) {
  if (comm) comm->topology = std::make_shared<Topology>(std::move(topology));
  return comm;
}

}  // namespace

std::unique_ptr<Communicator> createCartesian(Communicator& parent, CartesianTopology grid) {
  const int size = gridSize(grid.dims);
  requireFits(parent, size, "the grid's size");
  const int color = parent.rank() < size ? 0 : MPI_UNDEFINED;
  return attach(splitCommunicator(parent, color, parent.rank()), {std::move(grid)});
}

std::unique_ptr<Communicator> createCartesianSub(Communicator& cart, const std::vector<bool>& remain) {
  CartSub sub = cartSub(cartesianOf(cart), cart.rank(), remain);
  return attach(splitCommunicator(cart, sub.color, cart.rank()), {std::move(sub.grid)});
}

std::unique_ptr<Communicator> createGraph(Communicator& parent, GraphTopology graph) {
  const int nnodes = graph.nnodes();
  requireFits(parent, nnodes, "nnodes");
  const int color = parent.rank() < nnodes ? 0 : MPI_UNDEFINED;
  return attach(splitCommunicator(parent, color, parent.rank()), {std::move(graph)});
}

std::unique_ptr<Communicator> createDistGraphAdjacent(Communicator& parent, DistGraphTopology mine) {
  requireRanks(parent, mine.sources, "sources");
  requireRanks(parent, mine.destinations, "destinations");
  std::unique_ptr<Communicator> comm = dupCommunicator(parent);
  comm->topology.reset();
  return attach(std::move(comm), {std::move(mine)});
}

std::unique_ptr<Communicator> createDistGraph(Communicator& parent, const DistGraphEdges& edges) {
  // Checked inside the exchange; the exchange runs on the parent before the new context
  // exists, which is fine: it is one collective call like any other.
  DistGraphTopology mine = exchangeDistGraphEdges(parent, edges);
  std::unique_ptr<Communicator> comm = dupCommunicator(parent);
  comm->topology.reset();
  return attach(std::move(comm), {std::move(mine)});
}

}  // namespace zmpi::mpi
