#include "mpi/topo/topology.h"

#include <string>

#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"

namespace zmpi::mpi {
namespace {

template <typename Shape>
const Shape& shapeOf(const Communicator& comm, const char* expected) {
  const Shape* shape = comm.topology ? std::get_if<Shape>(&comm.topology->shape) : nullptr;
  if (shape == nullptr) {
    fail(MPI_ERR_TOPOLOGY, "communicator " + (comm.name.empty() ? std::string("(unnamed)") : comm.name) + " has no " +
                               expected + " topology");
  }
  return *shape;
}

}  // namespace

const CartesianTopology& cartesianOf(const Communicator& comm) { return shapeOf<CartesianTopology>(comm, "Cartesian"); }
const GraphTopology& graphOf(const Communicator& comm) { return shapeOf<GraphTopology>(comm, "graph"); }
const DistGraphTopology& distGraphOf(const Communicator& comm) {
  return shapeOf<DistGraphTopology>(comm, "distributed graph");
}

}  // namespace zmpi::mpi
