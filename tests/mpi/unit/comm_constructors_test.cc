// Communicator constructors in mock mode (comm/constructors.h): every member agrees on
// the new context id, the id is fresh for all of them, groups come out in MPI's order,
// and the agreement sends exactly the messages of a Bruck allgather in the parent's
// collective context.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "mock_world.h"
#include "mpi/comm/constructors.h"
#include "mpi/comm/group_ops.h"
#include "mpi/core/error.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

// What one rank saw of a new communicator; checked on the test's thread.
struct Seen {
  bool member = false;
  int context = -1;
  int rank = -1;
  std::vector<int> worldRanks;
};

Seen describe(const std::unique_ptr<Communicator>& comm) {
  if (!comm) return {};
  return {true, comm->contextId(), comm->rank(), comm->group().worldRanks()};
}

}  // namespace

TEST_CASE("dup agrees on one fresh context id across all ranks", "[comm][mock]") {
  constexpr int n = 4;
  std::array<Seen, n> first, second;
  std::array<int, n> floors{};
  auto network = runMockWorlds(n, [&](World& world) {
    auto r = static_cast<std::size_t>(world.rank());
    auto a = dupCommunicator(world.commWorld());
    auto b = dupCommunicator(*a);
    first[r] = describe(a);
    second[r] = describe(b);
    floors[r] = world.contextIdFloor();
  });
  for (int r = 0; r < n; ++r) {
    const auto i = static_cast<std::size_t>(r);
    CHECK(first[i].context == first[0].context);
    CHECK(second[i].context == second[0].context);
    CHECK(first[i].rank == r);
    CHECK(first[i].worldRanks == std::vector<int>{0, 1, 2, 3});
    CHECK(floors[i] == second[0].context + 1);
  }
  CHECK(first[0].context >= 2);  // 0 and 1 are MPI_COMM_WORLD and MPI_COMM_SELF
  CHECK(second[0].context > first[0].context);

  // Bruck on 4 ranks: two rounds, one message per rank each, the first dup's in
  // MPI_COMM_WORLD's collective context (2 * 0 + 1), the second's in the first dup's.
  auto sent = network->sent();
  REQUIRE(sent.size() == 2 * n * 2);
  int inWorld = 0, inDup = 0;
  for (const auto& record : sent) {
    if (record.envelope.context == 1) ++inWorld;
    if (record.envelope.context == 2 * first[0].context + 1) ++inDup;
  }
  CHECK(inWorld == 2 * n);
  CHECK(inDup == 2 * n);
}

TEST_CASE("split orders by key then rank, and MPI_UNDEFINED gets no communicator", "[comm][mock]") {
  constexpr int n = 7;
  std::array<Seen, n> parity, some;
  runMockWorlds(n, [&](World& world) {
    const int r = world.rank();
    parity[static_cast<std::size_t>(r)] = describe(splitCommunicator(world.commWorld(), r % 2, -r));
    // Ranks 0..2 in one color with equal keys (rank order decides), the rest undefined.
    some[static_cast<std::size_t>(r)] = describe(splitCommunicator(world.commWorld(), r < 3 ? 5 : MPI_UNDEFINED, 0));
  });
  for (int r = 0; r < n; ++r) {
    const Seen& p = parity[static_cast<std::size_t>(r)];
    REQUIRE(p.member);
    CHECK(p.worldRanks == (r % 2 == 0 ? std::vector<int>{6, 4, 2, 0} : std::vector<int>{5, 3, 1}));
    CHECK(p.worldRanks[static_cast<std::size_t>(p.rank)] == r);
    CHECK(p.context == parity[0].context);
    const Seen& s = some[static_cast<std::size_t>(r)];
    CHECK(s.member == (r < 3));
    if (s.member) CHECK(s.worldRanks == std::vector<int>{0, 1, 2});
  }
  CHECK(some[0].context > parity[0].context);
}

TEST_CASE("a new context id is unused by every member even when their histories differ", "[comm][mock]") {
  constexpr int n = 5;
  std::array<std::set<int>, n> used;  // context ids each rank holds communicators on
  std::array<int, n> fresh{};
  runMockWorlds(n, [&](World& world) {
    const int r = world.rank();
    std::vector<std::unique_ptr<Communicator>> keep;
    // Even ranks build three extra communicators among themselves, odd ranks one.
    keep.push_back(splitCommunicator(world.commWorld(), r % 2, r));
    const int extra = r % 2 == 0 ? 2 : 0;
    for (int i = 0; i < extra; ++i) keep.push_back(dupCommunicator(*keep.back()));
    for (const auto& c : keep) used[static_cast<std::size_t>(r)].insert(c->contextId());
    fresh[static_cast<std::size_t>(r)] = dupCommunicator(world.commWorld())->contextId();
  });
  for (int r = 0; r < n; ++r) {
    CHECK(fresh[static_cast<std::size_t>(r)] == fresh[0]);
    for (int q = 0; q < n; ++q) CHECK(used[static_cast<std::size_t>(q)].count(fresh[0]) == 0);
  }
}

TEST_CASE("create gives members the group's order and others nothing", "[comm][mock]") {
  constexpr int n = 4;
  std::array<Seen, n> seen;
  runMockWorlds(n, [&](World& world) {
    auto* group = new Group({3, 1});
    seen[static_cast<std::size_t>(world.rank())] = describe(createCommunicator(world.commWorld(), *group));
    group->release();
  });
  CHECK_FALSE(seen[0].member);
  CHECK_FALSE(seen[2].member);
  CHECK(seen[3].rank == 0);
  CHECK(seen[1].rank == 1);
  CHECK(seen[1].worldRanks == std::vector<int>{3, 1});
  CHECK(seen[1].context == seen[3].context);
}

TEST_CASE("create_group involves only the group's members", "[comm][mock]") {
  constexpr int n = 5;
  std::array<Seen, n> seen;
  auto network = runMockWorlds(n, [&](World& world) {
    const int r = world.rank();
    // Two disjoint groups at once with the same tag; rank 4 does not take part at all.
    if (r == 4) return;
    auto* group = new Group(r % 2 == 0 ? std::vector<int>{2, 0} : std::vector<int>{3, 1});
    seen[static_cast<std::size_t>(r)] = describe(createCommunicatorFromGroup(world.commWorld(), *group, 7));
    group->release();
  });
  CHECK(seen[2].worldRanks == std::vector<int>{2, 0});
  CHECK(seen[0].rank == 1);
  CHECK(seen[0].context == seen[2].context);
  CHECK(seen[1].worldRanks == std::vector<int>{3, 1});
  CHECK(seen[1].context == seen[3].context);
  for (const auto& record : network->sent()) {
    CHECK(record.from != 4);
    CHECK(record.to != 4);
    CHECK(record.envelope.context < 0);  // a scratch context no communicator has
  }
}

TEST_CASE("split_type shared groups ranks by host", "[comm][mock]") {
  constexpr int n = 3;
  std::array<Seen, n> seen;
  runMockWorlds(n, [&](World& world) {
    // Every mock rank is on host "mock": one communicator, ordered by key.
    seen[static_cast<std::size_t>(world.rank())] =
        describe(splitCommunicatorByType(world.commWorld(), MPI_COMM_TYPE_SHARED, n - world.rank()));
  });
  for (const auto& s : seen) CHECK(s.worldRanks == std::vector<int>{2, 1, 0});
}

TEST_CASE("compare tells ident, congruent, similar and unequal communicators apart", "[comm][mock]") {
  std::array<std::array<int, 4>, 3> results{};
  runMockWorlds(3, [&](World& world) {
    Communicator& w = world.commWorld();
    auto dup = dupCommunicator(w);
    auto reversed = splitCommunicator(w, 0, -world.rank());
    auto part = splitCommunicator(w, world.rank() == 0 ? 0 : 1, 0);
    results[static_cast<std::size_t>(world.rank())] = {compareCommunicators(w, w), compareCommunicators(w, *dup),
                                                       compareCommunicators(w, *reversed),
                                                       compareCommunicators(w, *part)};
  });
  for (const auto& r : results) CHECK(r == std::array<int, 4>{MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR, MPI_UNEQUAL});
}

TEST_CASE("constructors reject bad arguments with the right classes", "[comm][mock]") {
  runMockWorlds(1, [&](World& world) {
    CHECK_THROWS_MATCHES(splitCommunicator(world.commWorld(), -5, 0), MpiError,
                         Catch::Predicate<MpiError>([](const MpiError& e) { return e.code() == MPI_ERR_ARG; }));
    auto* outside = new Group({0, 3});
    CHECK_THROWS_MATCHES(createCommunicator(world.commWorld(), *outside), MpiError,
                         Catch::Predicate<MpiError>([](const MpiError& e) { return e.code() == MPI_ERR_GROUP; }));
    outside->release();
  });
}
