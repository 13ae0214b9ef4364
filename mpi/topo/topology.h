#pragma once
// The virtual topology attached to a communicator (Communicator::topology): Cartesian,
// graph or distributed graph. Immutable once attached, so MPI_Comm_dup shares it.
#include <mpi.h>

#include <variant>
#include <vector>

namespace zmpi::mpi {

struct CartesianTopology {
  std::vector<int> dims;
  std::vector<bool> periods;
  int ndims() const { return static_cast<int>(dims.size()); }
};

// MPI_Graph_create's form: node i's neighbors are edges[index[i-1] .. index[i]).
struct GraphTopology {
  std::vector<int> index;
  std::vector<int> edges;
  int nnodes() const { return static_cast<int>(index.size()); }
};

// Only this process's edges, as MPI_Dist_graph_* report them.
struct DistGraphTopology {
  std::vector<int> sources;
  std::vector<int> sourceWeights;  // empty when unweighted
  std::vector<int> destinations;
  std::vector<int> destinationWeights;
  bool weighted = false;
};

struct Topology {
  std::variant<CartesianTopology, GraphTopology, DistGraphTopology> shape;

  // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH (MPI_Topo_test).
  int kind() const {
    static constexpr int kinds[] = {MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH};
    return kinds[shape.index()];
  }
  const CartesianTopology* cartesian() const { return std::get_if<CartesianTopology>(&shape); }
  const GraphTopology* graph() const { return std::get_if<GraphTopology>(&shape); }
  const DistGraphTopology* distGraph() const { return std::get_if<DistGraphTopology>(&shape); }
};

}  // namespace zmpi::mpi

namespace zmpi::mpi {

class Communicator;

// The communicator's topology of the kind a call needs, or MpiError(MPI_ERR_TOPOLOGY)
// naming the call's expectation.
const CartesianTopology& cartesianOf(const Communicator& comm);
const GraphTopology& graphOf(const Communicator& comm);
const DistGraphTopology& distGraphOf(const Communicator& comm);

}  // namespace zmpi::mpi
