// Cartesian arithmetic (topo/cartesian.h): MPI_Dims_create's balanced factorisations,
// row-major coordinates, shifts with open and periodic edges, and Cart_sub's split.
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "mpi/core/error.h"
#include "mpi/topo/cartesian.h"

using namespace zmpi::mpi;

namespace {

using Ints = std::vector<int>;

Ints dims(int nnodes, Ints in) {
  dimsCreate(nnodes, in);
  return in;
}

int errorClassOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const MpiError& error) {
    return error.code();
  }
  return MPI_SUCCESS;
}

CartesianTopology grid(Ints extents, std::vector<bool> periods) { return {std::move(extents), std::move(periods)}; }

}  // namespace

TEST_CASE("Dims_create balances the free dimensions in non-increasing order", "[topo][cart]") {
  CHECK(dims(6, {0, 0}) == Ints{3, 2});
  CHECK(dims(12, {0, 0}) == Ints{4, 3});
  CHECK(dims(16, {0, 0, 0}) == Ints{4, 2, 2});
  CHECK(dims(36, {0, 0}) == Ints{6, 6});
  CHECK(dims(30, {0, 0}) == Ints{6, 5});
  CHECK(dims(7, {0, 0}) == Ints{7, 1});
  CHECK(dims(1, {0, 0, 0}) == Ints{1, 1, 1});
  CHECK(dims(64, {0, 0, 0}) == Ints{4, 4, 4});
  CHECK(dims(5, {0}) == Ints{5});
  CHECK(dims(1, {}).empty());
}

TEST_CASE("Dims_create keeps fixed entries and fills around them", "[topo][cart]") {
  CHECK(dims(12, {0, 3}) == Ints{4, 3});
  CHECK(dims(24, {2, 0, 0}) == Ints{2, 4, 3});
  CHECK(dims(8, {2, 2, 2}) == Ints{2, 2, 2});
}

TEST_CASE("Dims_create rejects impossible requests with MPI_ERR_DIMS", "[topo][cart]") {
  CHECK(errorClassOf([] { dims(10, {3, 0}); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([] { dims(8, {2, 2}); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([] { dims(6, {-1, 0}); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([] { dims(0, {0}); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([] { dims(2, {}); }) == MPI_ERR_DIMS);
}

TEST_CASE("ranks and coordinates are row-major inverses", "[topo][cart]") {
  const auto g = grid({2, 3, 4}, {false, false, false});
  CHECK(cartCoords(g, 0) == Ints{0, 0, 0});
  CHECK(cartCoords(g, 1) == Ints{0, 0, 1});
  CHECK(cartCoords(g, 4) == Ints{0, 1, 0});
  CHECK(cartCoords(g, 23) == Ints{1, 2, 3});
  for (int r = 0; r < 24; ++r) CHECK(cartRank(g, cartCoords(g, r)) == r);
  CHECK(errorClassOf([&] { cartCoords(g, 24); }) == MPI_ERR_RANK);
  CHECK(errorClassOf([&] { cartRank(g, {0, 3, 0}); }) == MPI_ERR_ARG);
}

TEST_CASE("coordinates wrap in periodic dimensions only", "[topo][cart]") {
  const auto g = grid({3, 4}, {true, false});
  CHECK(cartRank(g, {-1, 0}) == cartRank(g, {2, 0}));
  CHECK(cartRank(g, {7, 1}) == cartRank(g, {1, 1}));
  CHECK(errorClassOf([&] { cartRank(g, {0, -1}); }) == MPI_ERR_ARG);
}

TEST_CASE("Cart_shift gives MPI_PROC_NULL past open edges and wraps periodic ones", "[topo][cart]") {
  const auto g = grid({3, 4}, {false, true});  // rank = 4 * row + column
  auto s = cartShift(g, 0, 0, 1);              // row 0 moving down
  CHECK(s.source == MPI_PROC_NULL);
  CHECK(s.dest == 4);
  s = cartShift(g, 8, 0, 1);  // last row
  CHECK(s.source == 4);
  CHECK(s.dest == MPI_PROC_NULL);
  s = cartShift(g, 3, 1, 1);  // column 3 wraps to 0
  CHECK(s.source == 2);
  CHECK(s.dest == 0);
  s = cartShift(g, 5, 1, -2);
  CHECK(s.source == 7);
  CHECK(s.dest == 7);
  s = cartShift(g, 4, 0, 5);  // far past both open edges
  CHECK(s.source == MPI_PROC_NULL);
  CHECK(s.dest == MPI_PROC_NULL);
  s = cartShift(g, 6, 1, 0);
  CHECK(s.source == 6);
  CHECK(s.dest == 6);
  CHECK(errorClassOf([&] { cartShift(g, 0, 2, 1); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([&] { cartShift(g, 0, -1, 1); }) == MPI_ERR_DIMS);
}

TEST_CASE("Cart_sub colors by the dropped coordinates and keeps the remaining shape", "[topo][cart]") {
  const auto g = grid({2, 3, 4}, {true, false, true});
  // Keep dimension 1: ranks sharing coordinates 0 and 2 share a color.
  auto sub = cartSub(g, cartRank(g, {1, 2, 3}), {false, true, false});
  CHECK(sub.color == 1 * 4 + 3);
  CHECK(sub.grid.dims == Ints{3});
  CHECK(sub.grid.periods == std::vector<bool>{false});
  CHECK(cartSub(g, cartRank(g, {1, 0, 3}), {false, true, false}).color == sub.color);
  CHECK(cartSub(g, cartRank(g, {0, 2, 3}), {false, true, false}).color != sub.color);
  // Keep everything: one color. Keep nothing: a color per rank, a 0-dimensional grid.
  CHECK(cartSub(g, 17, {true, true, true}).color == 0);
  auto point = cartSub(g, 17, {false, false, false});
  CHECK(point.color == 17);
  CHECK(point.grid.dims.empty());
}

TEST_CASE("gridSize rejects non-positive extents and overflow", "[topo][cart]") {
  CHECK(gridSize({}) == 1);
  CHECK(gridSize({2, 5}) == 10);
  CHECK(errorClassOf([] { gridSize({2, 0}); }) == MPI_ERR_DIMS);
  CHECK(errorClassOf([] { gridSize({1 << 16, 1 << 16}); }) == MPI_ERR_DIMS);
}
