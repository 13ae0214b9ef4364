#pragma once
// Communicators with a topology attached (MPI_Cart_create, _Cart_sub, _Graph_create,
// _Dist_graph_create[_adjacent]). All are collective over the parent and built on the
// communicator constructors (comm/constructors.h). `reorder` is always honoured by
// keeping the parent's order, which the standard allows.
#include <memory>

#include "mpi/comm/communicator.h"
#include "mpi/topo/graph.h"
#include "mpi/topo/topology.h"

namespace zmpi::mpi {

// Ranks beyond the grid's size get null. A grid larger than the parent: MPI_ERR_ARG.
std::unique_ptr<Communicator> createCartesian(Communicator& parent, CartesianTopology grid);
// One communicator per combination of the dropped coordinates.
std::unique_ptr<Communicator> createCartesianSub(Communicator& cart, const std::vector<bool>& remain);
// Ranks beyond nnodes get null; nnodes larger than the parent: MPI_ERR_ARG.
std::unique_ptr<Communicator> createGraph(Communicator& parent, GraphTopology graph);
// Every rank gets a communicator over the parent's group; `mine` is this rank's own
// adjacency (checked: ranks within the parent, MPI_ERR_RANK).
std::unique_ptr<Communicator> createDistGraphAdjacent(Communicator& parent, DistGraphTopology mine);
// As above, from edges any rank may describe (redistributed first).
std::unique_ptr<Communicator> createDistGraph(Communicator& parent, const DistGraphEdges& edges);

}  // namespace zmpi::mpi
