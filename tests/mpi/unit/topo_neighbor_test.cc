// Neighbor exchanges over topologies in mock mode (topo/neighbor_exchange.h): blocks land
// in the slots the standard names, also when both Cartesian neighbors are the same rank,
// MPI_PROC_NULL slots stay untouched, and the general dist-graph constructor gives both
// ends of every edge the same view.
#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "mock_world.h"
#include "mpi/topo/create.h"
#include "mpi/topo/neighbor_exchange.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

// alltoall of one int per neighbor: sends[j] = 100 * rank + j. Returns what arrived.
std::vector<int> alltoallInts(Communicator& comm, bool nonblocking = false) {
  NeighborLists lists = neighborListsOf(comm);
  std::vector<int> out(lists.destinations.size()), in(lists.sources.size(), -1);
  std::vector<NeighborBlock> sends, recvs;
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j] = 100 * comm.rank() + static_cast<int>(j);
    sends.push_back({&out[j], sizeof(int), byteType()});
  }
  for (std::size_t i = 0; i < in.size(); ++i) recvs.push_back({&in[i], sizeof(int), byteType()});
  auto exchange = std::make_unique<NeighborExchange>(comm, lists, std::move(sends), std::move(recvs));
  if (nonblocking) {
    std::unique_ptr<Request> request(makeNeighborRequest(comm, std::move(exchange)));
    comm.world().engine().waitUntil([&] { return request->progress(); });
  } else {
    exchange->wait();
  }
  return in;
}

CartesianTopology cartesian(std::vector<int> dims, std::vector<bool> periods) {
  return {std::move(dims), std::move(periods)};
}

}  // namespace

TEST_CASE("a block sent towards +1 arrives in the receiver's -1 slot, even from itself", "[topo][neighbor][mock]") {
  // 2 x 1 periodic: in dimension 0 both neighbors are the other rank, in dimension 1 both
  // are the rank itself.
  std::array<std::vector<int>, 2> got;
  runMockWorlds(2, [&](World& world) {
    auto cart = createCartesian(world.commWorld(), cartesian({2, 1}, {true, true}));
    got[static_cast<std::size_t>(world.rank())] = alltoallInts(*cart);
  });
  // Slots: [dim0 -1, dim0 +1, dim1 -1, dim1 +1]. The -1 slot holds what the -1 neighbor
  // sent towards +1 (its block 1), and so on.
  CHECK(got[0] == std::vector<int>{101, 100, 3, 2});
  CHECK(got[1] == std::vector<int>{1, 0, 103, 102});
}

TEST_CASE("open Cartesian edges are MPI_PROC_NULL and leave their slots alone", "[topo][neighbor][mock]") {
  std::array<std::vector<int>, 3> got;
  runMockWorlds(3, [&](World& world) {
    auto line = createCartesian(world.commWorld(), cartesian({3}, {false}));
    got[static_cast<std::size_t>(world.rank())] = alltoallInts(*line, world.rank() == 1);
  });
  CHECK(got[0] == std::vector<int>{-1, 100});
  CHECK(got[1] == std::vector<int>{1, 200});
  CHECK(got[2] == std::vector<int>{101, -1});
}

TEST_CASE("ranks outside a smaller grid get no communicator", "[topo][cart][mock]") {
  std::array<bool, 3> member{};
  runMockWorlds(3, [&](World& world) {
    member[static_cast<std::size_t>(world.rank())] =
        createCartesian(world.commWorld(), cartesian({2}, {false})) != nullptr;
  });
  CHECK(member == std::array<bool, 3>{true, true, false});
}

TEST_CASE("Cart_sub splits a grid into rows with the row's shape", "[topo][cart][mock]") {
  constexpr int n = 6;
  std::array<std::vector<int>, n> rows, shapes;
  runMockWorlds(n, [&](World& world) {
    auto cart = createCartesian(world.commWorld(), cartesian({2, 3}, {false, true}));
    auto row = createCartesianSub(*cart, {false, true});
    shapes[static_cast<std::size_t>(world.rank())] = cartesianOf(*row).dims;
    rows[static_cast<std::size_t>(world.rank())] = row->group().worldRanks();
  });
  for (int r = 0; r < n; ++r) {
    CHECK(shapes[static_cast<std::size_t>(r)] == std::vector<int>{3});
    CHECK(rows[static_cast<std::size_t>(r)] == (r < 3 ? std::vector<int>{0, 1, 2} : std::vector<int>{3, 4, 5}));
  }
}

TEST_CASE("dist graph edges described by any rank reach both of their ends", "[topo][distgraph][mock]") {
  constexpr int n = 4;
  std::array<DistGraphTopology, n> views;
  std::array<std::vector<int>, n> got;
  runMockWorlds(n, [&](World& world) {
    const int r = world.rank();
    DistGraphEdges edges;
    // Every rank: r -> r+1. Rank 0 also describes 2 -> 0 and 3 -> 1 (twice: a multi-edge).
    edges.sources = {r};
    edges.degrees = {1};
    edges.destinations = {(r + 1) % n};
    if (r == 0) {
      edges.sources.insert(edges.sources.end(), {2, 3});
      edges.degrees.insert(edges.degrees.end(), {1, 2});
      edges.destinations.insert(edges.destinations.end(), {0, 1, 1});
    }
    edges.weighted = true;
    edges.weights.assign(edges.destinations.size(), 0);
    for (std::size_t k = 0; k < edges.weights.size(); ++k) edges.weights[k] = 10 * r + static_cast<int>(k);
    auto comm = createDistGraph(world.commWorld(), edges);
    views[static_cast<std::size_t>(r)] = distGraphOf(*comm);
    got[static_cast<std::size_t>(r)] = alltoallInts(*comm);
  });
  // Edges are listed by describing rank, then position: rank 0's own come first.
  CHECK(views[0].sources == std::vector<int>{2, 3});
  CHECK(views[0].destinations == std::vector<int>{1});
  CHECK(views[1].sources == std::vector<int>{0, 3, 3});
  CHECK(views[1].sourceWeights == std::vector<int>{0, 2, 3});
  CHECK(views[2].destinations == std::vector<int>{0, 3});
  CHECK(views[3].destinations == std::vector<int>{1, 1, 0});
  CHECK(views[3].destinationWeights == std::vector<int>{2, 3, 30});
  // Rank 3's destination blocks j = 0, 1 (both to rank 1) arrive in order.
  CHECK(got[1] == std::vector<int>{0, 300, 301});
  CHECK(got[0] == std::vector<int>{200, 302});
}

TEST_CASE("a graph topology exchanges with each listed neighbor", "[topo][graph][mock]") {
  constexpr int n = 3;
  std::array<std::vector<int>, n> got;
  runMockWorlds(n, [&](World& world) {
    // A triangle: everyone neighbors everyone else.
    const int index[] = {2, 4, 6};
    const int edges[] = {1, 2, 0, 2, 0, 1};
    auto comm = createGraph(world.commWorld(), makeGraph(n, index, edges));
    got[static_cast<std::size_t>(world.rank())] = alltoallInts(*comm);
  });
  CHECK(got[0] == std::vector<int>{100, 200});
  CHECK(got[1] == std::vector<int>{0, 201});
  CHECK(got[2] == std::vector<int>{1, 101});
}
