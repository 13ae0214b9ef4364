#include "mpi/topo/cartesian.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi {
namespace {

std::string entry(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

std::vector<int> primeFactorsDescending(int n) {
  std::vector<int> factors;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  std::sort(factors.begin(), factors.end(), std::greater<>());
  return factors;
}

// The coordinate `c` lands on in a dimension of extent `extent`: wrapped when periodic,
// -1 when it falls off an open edge.
int landing(long long c, int extent, bool periodic) {
  if (periodic) return static_cast<int>(((c % extent) + extent) % extent);
  return c < 0 || c >= extent ? -1 : static_cast<int>(c);
}

}  // namespace

void dimsCreate(int nnodes, std::vector<int>& dims) {
  if (nnodes <= 0) fail(MPI_ERR_DIMS, "nnodes " + std::to_string(nnodes) + " is not positive");
  long long fixed = 1;
  std::vector<std::size_t> free;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) fail(MPI_ERR_DIMS, entry("dims", i) + " = " + std::to_string(dims[i]) + " is negative");
    if (dims[i] == 0) {
      free.push_back(i);
    } else {
      fixed *= dims[i];
      if (fixed > nnodes) break;
    }
  }
  if (fixed > nnodes || nnodes % fixed != 0 || (free.empty() && fixed != nnodes)) {
    fail(MPI_ERR_DIMS, "nnodes " + std::to_string(nnodes) + " is not a multiple of the fixed dims' product " +
                           std::to_string(fixed) + (free.empty() ? " (and no dims entry is free)" : ""));
  }
  if (free.empty()) return;
  std::vector<int> extents(free.size(), 1);
  for (int prime : primeFactorsDescending(static_cast<int>(nnodes / fixed))) {
    *std::min_element(extents.begin(), extents.end()) *= prime;
  }
  std::sort(extents.begin(), extents.end(), std::greater<>());
  for (std::size_t i = 0; i < free.size(); ++i) dims[free[i]] = extents[i];
}

int gridSize(const std::vector<int>& dims) {
  long long size = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0) fail(MPI_ERR_DIMS, entry("dims", i) + " = " + std::to_string(dims[i]) + " is not positive");
    size *= dims[i];
    if (size > INT_MAX) fail(MPI_ERR_DIMS, "the grid's size overflows an int");
  }
  return static_cast<int>(size);
}

std::vector<int> cartCoords(const CartesianTopology& grid, int rank) {
  const int size = gridSize(grid.dims);
  if (rank < 0 || rank >= size) {
    fail(MPI_ERR_RANK, "rank " + std::to_string(rank) + " is not in the grid (size " + std::to_string(size) + ")");
  }
  std::vector<int> coords(grid.dims.size());
  for (std::size_t i = grid.dims.size(); i-- > 0;) {
    coords[i] = rank % grid.dims[i];
    rank /= grid.dims[i];
  }
  return coords;
}

int cartRank(const CartesianTopology& grid, const std::vector<int>& coords) {
  int rank = 0;
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    const int c = landing(coords[i], grid.dims[i], grid.periods[i]);
    if (c < 0) {
      fail(MPI_ERR_ARG, entry("coords", i) + " = " + std::to_string(coords[i]) + " is outside 0.." +
                            std::to_string(grid.dims[i] - 1) + " of a non-periodic dimension");
    }
    rank = rank * grid.dims[i] + c;
  }
  return rank;
}

CartShift cartShift(const CartesianTopology& grid, int rank, int direction, int displacement) {
  if (direction < 0 || direction >= grid.ndims()) {
    fail(MPI_ERR_DIMS, "direction " + std::to_string(direction) + " is not a dimension of the grid (ndims " +
                           std::to_string(grid.ndims()) + ")");
  }
  std::vector<int> coords = cartCoords(grid, rank);
  const auto d = static_cast<std::size_t>(direction);
  const int here = coords[d];
  auto rankAt = [&](long long c) {
    const int landed = landing(c, grid.dims[d], grid.periods[d]);
    if (landed < 0) return static_cast<int>(MPI_PROC_NULL);
    coords[d] = landed;
    return cartRank(grid, coords);
  };
  CartShift shift;
  shift.dest = rankAt(static_cast<long long>(here) + displacement);
  shift.source = rankAt(static_cast<long long>(here) - displacement);
  return shift;
}

CartSub cartSub(const CartesianTopology& grid, int rank, const std::vector<bool>& remain) {
  const std::vector<int> coords = cartCoords(grid, rank);
  CartSub sub{0, {}};
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    if (remain[i]) {
      sub.grid.dims.push_back(grid.dims[i]);
      sub.grid.periods.push_back(grid.periods[i]);
    } else {
      sub.color = sub.color * grid.dims[i] + coords[i];
    }
  }
  return sub;
}

}  // namespace zmpi::mpi
