#pragma once
// Cartesian grid arithmetic (row-major rank order, as MPI prescribes), free of any
// communication so it can be unit-tested directly.
#include <vector>

#include "mpi/topo/topology.h"

namespace zmpi::mpi {

// MPI_Dims_create: fills the zero entries of `dims` so the product is `nnodes`, as close
// to each other as possible, in non-increasing order. Greedy: the prime factors of what
// is left, largest first, each multiplied into the currently smallest free dimension.
// MPI_ERR_DIMS when the fixed entries do not divide nnodes or an entry is negative.
void dimsCreate(int nnodes, std::vector<int>& dims);

// Checks a grid description (every extent positive: MPI_ERR_DIMS) and returns its size.
int gridSize(const std::vector<int>& dims);

std::vector<int> cartCoords(const CartesianTopology& grid, int rank);
// Coordinates outside a periodic dimension wrap; outside a non-periodic one: MPI_ERR_ARG.
int cartRank(const CartesianTopology& grid, const std::vector<int>& coords);

struct CartShift {
  int source;  // the rank whose shift by `displacement` lands here
  int dest;    // where this rank lands; MPI_PROC_NULL past an open edge
};
CartShift cartShift(const CartesianTopology& grid, int rank, int direction, int displacement);

// MPI_Cart_sub as a split: ranks agreeing on the dropped coordinates share a color; the
// row-major rank order of the kept coordinates is the parent's rank order, so the key is
// the parent rank.
struct CartSub {
  int color;
  CartesianTopology grid;
};
CartSub cartSub(const CartesianTopology& grid, int rank, const std::vector<bool>& remain);

}  // namespace zmpi::mpi
