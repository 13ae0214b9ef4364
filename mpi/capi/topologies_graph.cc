// Graph and distributed-graph topology entry points (the Cartesian ones: topologies.cc).
#include <algorithm>
#include <string>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/int_array_args.h"
#include "mpi/capi/validate.h"
#include "mpi/core/info.h"
#include "mpi/topo/create.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

void degreeArg(int degree, const char* name) {
  if (degree < 0) fail(MPI_ERR_ARG, std::string(name) + " " + std::to_string(degree) + " is negative");
}

// MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are sentinel pointers, never arrays.
bool isWeighted(const int* weights) { return weights != MPI_UNWEIGHTED; }
std::vector<int> weightArray(const int* weights, int n, const char* name) {
  if (!isWeighted(weights)) return {};
  if (weights == MPI_WEIGHTS_EMPTY) {
    if (n > 0) fail(MPI_ERR_ARG, std::string(name) + " is MPI_WEIGHTS_EMPTY for " + std::to_string(n) + " edges");
    return {};
  }
  return intArrayArg(weights, n, name);
}

GraphTopology graphArg(int nnodes, const int index[], const int edges[]) {
  if (nnodes < 0) fail(MPI_ERR_ARG, "nnodes " + std::to_string(nnodes) + " is negative");
  if (nnodes > 0) {
    pointerArg(index, "index");
    if (index[nnodes - 1] > 0) pointerArg(edges, "edges");
  }
  return makeGraph(nnodes, index, edges);
}

void publish(std::unique_ptr<Communicator> comm, MPI_Comm* out) {
  *out = comm ? comm.release()->publish() : MPI_COMM_NULL;
}

}  // namespace

extern "C" {

int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm* commGraph) {
  return guardedComm("MPI_Graph_create", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    GraphTopology graph = graphArg(nnodes, index, edges);
    pointerArg(commGraph, "comm_graph");
    publish(createGraph(parent, std::move(graph)), commGraph);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graph_create)

int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  return guardedComm("MPI_Graphdims_get", comm, [&] {
    const GraphTopology& graph = graphOf(commArg(comm));
    pointerArg(nnodes, "nnodes");
    pointerArg(nedges, "nedges");
    *nnodes = graph.nnodes();
    *nedges = static_cast<int>(graph.edges.size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graphdims_get)

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return guardedComm("MPI_Graph_get", comm, [&] {
    const GraphTopology& graph = graphOf(commArg(comm));
    copyOutInts(graph.index, maxindex, index, "index");
    copyOutInts(graph.edges, maxedges, edges, "edges");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graph_get)

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  return guardedComm("MPI_Graph_neighbors_count", comm, [&] {
    const GraphTopology& graph = graphOf(commArg(comm));
    pointerArg(nneighbors, "nneighbors");
    *nneighbors = static_cast<int>(graphNeighbors(graph, rank).size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  return guardedComm("MPI_Graph_neighbors", comm, [&] {
    const GraphTopology& graph = graphOf(commArg(comm));
    copyOutInts(graphNeighbors(graph, rank), maxneighbors, neighbors, "neighbors");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graph_neighbors)

// The identity placement, as MPI_Cart_map.
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  return guardedComm("MPI_Graph_map", comm, [&] {
    Communicator& c = commArg(comm);
    graphArg(nnodes, index, edges);
    pointerArg(newrank, "newrank");
    if (nnodes > c.size()) {
      fail(MPI_ERR_ARG,
           "nnodes " + std::to_string(nnodes) + " exceeds the communicator's size " + std::to_string(c.size()));
    }
    *newrank = c.rank() < nnodes ? c.rank() : MPI_UNDEFINED;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Graph_map)

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm* commDistGraph) {
  return guardedComm("MPI_Dist_graph_create_adjacent", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    degreeArg(indegree, "indegree");
    degreeArg(outdegree, "outdegree");
    infoOrNull(info);  // hints are optional; zmpi acts on none
    pointerArg(commDistGraph, "comm_dist_graph");
    DistGraphTopology mine;
    mine.sources = intArrayArg(sources, indegree, "sources");
    mine.destinations = intArrayArg(destinations, outdegree, "destinations");
    mine.weighted = isWeighted(sourceweights) && isWeighted(destweights);
    if (mine.weighted) {
      mine.sourceWeights = weightArray(sourceweights, indegree, "sourceweights");
      mine.destinationWeights = weightArray(destweights, outdegree, "destweights");
    }
    publish(createDistGraphAdjacent(parent, std::move(mine)), commDistGraph);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Dist_graph_create_adjacent)

int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                           const int weights[], MPI_Info info, int reorder, MPI_Comm* commDistGraph) {
  return guardedComm("MPI_Dist_graph_create", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    degreeArg(n, "n");
    infoOrNull(info);  // hints are optional; zmpi acts on none
    pointerArg(commDistGraph, "comm_dist_graph");
    DistGraphEdges edges;
    edges.sources = intArrayArg(sources, n, "sources");
    edges.degrees = intArrayArg(degrees, n, "degrees");
    int total = 0;
    for (int i = 0; i < n; ++i) {
      degreeArg(edges.degrees[static_cast<std::size_t>(i)], ("degrees[" + std::to_string(i) + "]").c_str());
      total += edges.degrees[static_cast<std::size_t>(i)];
    }
    edges.destinations = intArrayArg(destinations, total, "destinations");
    edges.weighted = isWeighted(weights);
    edges.weights = weightArray(weights, total, "weights");
    publish(createDistGraph(parent, edges), commDistGraph);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Dist_graph_create)

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  return guardedComm("MPI_Dist_graph_neighbors_count", comm, [&] {
    const DistGraphTopology& graph = distGraphOf(commArg(comm));
    pointerArg(indegree, "indegree");
    pointerArg(outdegree, "outdegree");
    pointerArg(weighted, "weighted");
    *indegree = static_cast<int>(graph.sources.size());
    *outdegree = static_cast<int>(graph.destinations.size());
    *weighted = graph.weighted;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Dist_graph_neighbors_count)

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[]) {
  return guardedComm("MPI_Dist_graph_neighbors", comm, [&] {
    const DistGraphTopology& graph = distGraphOf(commArg(comm));
    copyOutInts(graph.sources, maxindegree, sources, "sources");
    copyOutInts(graph.destinations, maxoutdegree, destinations, "destinations");
    if (graph.weighted && isWeighted(sourceweights))
      copyOutInts(graph.sourceWeights, maxindegree, sourceweights, "sourceweights");
    if (graph.weighted && isWeighted(destweights))
      copyOutInts(graph.destinationWeights, maxoutdegree, destweights, "destweights");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Dist_graph_neighbors)

}  // extern "C"
