// Virtual topology entry points: Cartesian grids, graphs and distributed graphs, their
// queries, and MPI_Topo_test. Arithmetic and construction: topo/.
#include <algorithm>
#include <string>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/int_array_args.h"
#include "mpi/capi/validate.h"
#include "mpi/topo/cartesian.h"
#include "mpi/topo/create.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

CartesianTopology gridArg(int ndims, const int dims[], const int periods[]) {
  if (ndims < 0) fail(MPI_ERR_DIMS, "ndims " + std::to_string(ndims) + " is negative");
  CartesianTopology grid;
  grid.dims = intArrayArg(dims, ndims, "dims");
  for (int p : intArrayArg(periods, ndims, "periods")) grid.periods.push_back(p != 0);
  gridSize(grid.dims);  // every extent positive
  return grid;
}

}  // namespace

extern "C" {

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
  return guarded("MPI_Dims_create", [&] {
    if (ndims < 0) fail(MPI_ERR_DIMS, "ndims " + std::to_string(ndims) + " is negative");
    std::vector<int> d = intArrayArg(dims, ndims, "dims");
    dimsCreate(nnodes, d);
    std::copy(d.begin(), d.end(), dims);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Dims_create)

int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* commCart) {
  return guardedComm("MPI_Cart_create", comm, [&] {
    Communicator& parent = intraCommArg(comm);
    CartesianTopology grid = gridArg(ndims, dims, periods);
    pointerArg(commCart, "comm_cart");
    auto cart = createCartesian(parent, std::move(grid));
    *commCart = cart ? cart.release()->publish() : MPI_COMM_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_create)

int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  return guardedComm("MPI_Cartdim_get", comm, [&] {
    const CartesianTopology& grid = cartesianOf(commArg(comm));
    pointerArg(ndims, "ndims");
    *ndims = grid.ndims();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cartdim_get)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return guardedComm("MPI_Cart_get", comm, [&] {
    Communicator& c = commArg(comm);
    const CartesianTopology& grid = cartesianOf(c);
    if (maxdims < 0) fail(MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is negative");
    copyOutInts(grid.dims, maxdims, dims, "dims");
    copyOutInts(std::vector<int>(grid.periods.begin(), grid.periods.end()), maxdims, periods, "periods");
    copyOutInts(cartCoords(grid, c.rank()), maxdims, coords, "coords");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_get)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  return guardedComm("MPI_Cart_rank", comm, [&] {
    const CartesianTopology& grid = cartesianOf(commArg(comm));
    pointerArg(rank, "rank");
    *rank = cartRank(grid, intArrayArg(coords, grid.ndims(), "coords"));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_rank)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  return guardedComm("MPI_Cart_coords", comm, [&] {
    const CartesianTopology& grid = cartesianOf(commArg(comm));
    if (maxdims < 0) fail(MPI_ERR_ARG, "maxdims " + std::to_string(maxdims) + " is negative");
    copyOutInts(cartCoords(grid, rank), maxdims, coords, "coords");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_coords)

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rankSource, int* rankDest) {
  return guardedComm("MPI_Cart_shift", comm, [&] {
    Communicator& c = commArg(comm);
    const CartesianTopology& grid = cartesianOf(c);
    pointerArg(rankSource, "rank_source");
    pointerArg(rankDest, "rank_dest");
    const CartShift shift = cartShift(grid, c.rank(), direction, disp);
    *rankSource = shift.source;
    *rankDest = shift.dest;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_shift)

int PMPI_Cart_sub(MPI_Comm comm, const int remainDims[], MPI_Comm* newcomm) {
  return guardedComm("MPI_Cart_sub", comm, [&] {
    Communicator& c = commArg(comm);
    const CartesianTopology& grid = cartesianOf(c);
    pointerArg(newcomm, "newcomm");
    std::vector<bool> remain;
    for (int r : intArrayArg(remainDims, grid.ndims(), "remain_dims")) remain.push_back(r != 0);
    auto sub = createCartesianSub(c, remain);
    *newcomm = sub ? sub.release()->publish() : MPI_COMM_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_sub)

// The identity placement: the ranks that fit the grid keep their rank.
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  return guardedComm("MPI_Cart_map", comm, [&] {
    Communicator& c = commArg(comm);
    const int size = gridSize(gridArg(ndims, dims, periods).dims);
    pointerArg(newrank, "newrank");
    if (size > c.size()) {
      fail(MPI_ERR_ARG,
           "the grid's size " + std::to_string(size) + " exceeds the communicator's size " + std::to_string(c.size()));
    }
    *newrank = c.rank() < size ? c.rank() : MPI_UNDEFINED;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Cart_map)

int PMPI_Topo_test(MPI_Comm comm, int* status) {
  return guardedComm("MPI_Topo_test", comm, [&] {
    Communicator& c = commArg(comm);
    pointerArg(status, "status");
    *status = c.topology ? c.topology->kind() : MPI_UNDEFINED;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Topo_test)

}  // extern "C"
