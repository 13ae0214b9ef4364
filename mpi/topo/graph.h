#pragma once
// Graph topologies: MPI_Graph_create's description (checked here), a node's neighbors,
// and the general MPI_Dist_graph_create, which redistributes edges so that each process
// learns its own in- and out-edges.
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/topo/topology.h"

namespace zmpi::mpi {

// Checks (nnodes, index, edges) as MPI_Graph_create takes them: index non-decreasing,
// edges within 0..nnodes-1 (MPI_ERR_ARG naming the entry).
GraphTopology makeGraph(int nnodes, const int* index, const int* edges);

// Neighbors of `rank` in order (MPI_ERR_RANK outside the graph).
std::vector<int> graphNeighbors(const GraphTopology& graph, int rank);

// One process's share of a distributed graph description, as MPI_Dist_graph_create
// takes it: edges sources[i] -> destinations[...] with degrees[i] of them per source.
struct DistGraphEdges {
  std::vector<int> sources;
  std::vector<int> degrees;
  std::vector<int> destinations;
  std::vector<int> weights;  // one per destination when weighted
  bool weighted = false;
};

// Collective over `comm`: every process contributes edges naming any ranks of `comm`
// and gets back the edges touching it. Multi-edges keep the same relative order at both
// ends (ordered by contributing rank, then position), which neighbor collectives rely on.
DistGraphTopology exchangeDistGraphEdges(Communicator& comm, const DistGraphEdges& mine);

}  // namespace zmpi::mpi
