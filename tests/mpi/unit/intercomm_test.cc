// Intercommunicators in mock mode (comm/intercomm.h, coll/inter.h): both groups agree on
// the context ids, the groups and the bridge come out as MPI says, merge, dup and split
// keep that, and an intercommunicator allreduce sends exactly the leader-based pattern:
// members to their leader, leader to leader, leader to members, on the bridge's context.
#include "mpi/comm/intercomm.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "mock_world.h"
#include "mpi/coll/inter.h"
#include "mpi/coll/schedule.h"
#include "mpi/comm/constructors.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

constexpr int kInterWorld = 5;  // group A: world ranks 0, 2, 4; group B: 1, 3

// The leaders' exchange over MPI_COMM_WORLD's point-to-point context (the C API uses the
// peer communicator likewise): world rank 0 leads A, 1 leads B; the lower one sends first.
LeaderExchange worldExchange(World& world) {
  return [&world](const std::vector<int>& mine) {
    const int other = world.rank() == 0 ? 1 : 0;
    int length = static_cast<int>(mine.size()), theirLength = 0;
    std::vector<int> theirs;
    auto receive = [&] {
      recvBytes(world, other, 7, &theirLength, sizeof theirLength);
      theirs.resize(static_cast<std::size_t>(theirLength));
      recvBytes(world, other, 8, theirs.data(), theirs.size() * sizeof(int));
    };
    if (world.rank() == 1) receive();
    sendBytes(world, other, 7, &length, sizeof length);
    sendBytes(world, other, 8, mine.data(), mine.size() * sizeof(int));
    if (world.rank() == 0) receive();
    return theirs;
  };
}

std::unique_ptr<Communicator> makeTestIntercomm(World& world, std::unique_ptr<Communicator>& local) {
  local = splitCommunicator(world.commWorld(), world.rank() % 2, world.rank());
  return createIntercomm(*local, 0, worldExchange(world));
}

struct SeenInter {
  int context = -1, bridgeContext = -1, rank = -1, floor = -1;
  bool localFirst = false;
  std::vector<int> local, remote, bridge;
};

}  // namespace

TEST_CASE("intercomm_create agrees on both context ids across the groups", "[comm][inter][mock]") {
  std::array<SeenInter, kInterWorld> seen;
  runMockWorlds(kInterWorld, [&](World& world) {
    std::unique_ptr<Communicator> local;
    auto inter = makeTestIntercomm(world, local);
    auto& s = seen[static_cast<std::size_t>(world.rank())];
    s = {inter->contextId(),
         inter->bridge->contextId(),
         inter->rank(),
         world.contextIdFloor(),
         inter->localFirst,
         inter->group().worldRanks(),
         inter->remoteGroup().worldRanks(),
         inter->bridge->group().worldRanks()};
    CHECK(inter->isInter());
    CHECK(inter->peerSize() == inter->remoteGroup().size());
  });
  for (int r = 0; r < kInterWorld; ++r) {
    const auto& s = seen[static_cast<std::size_t>(r)];
    const bool inA = r % 2 == 0;
    CHECK(s.context == seen[0].context);
    CHECK(s.bridgeContext == s.context + 1);
    CHECK(s.floor >= s.context + 2);
    CHECK(s.local == (inA ? std::vector<int>{0, 2, 4} : std::vector<int>{1, 3}));
    CHECK(s.remote == (inA ? std::vector<int>{1, 3} : std::vector<int>{0, 2, 4}));
    CHECK(s.localFirst == inA);  // A's leader (world 0) is below B's (world 1)
    CHECK(s.bridge == std::vector<int>{0, 2, 4, 1, 3});
    CHECK(s.rank == r / 2);
  }
}

TEST_CASE("merge, dup and split of an intercommunicator", "[comm][inter][mock]") {
  std::array<std::vector<int>, kInterWorld> mergedHighA, mergedSame;
  std::array<int, kInterWorld> dupContext{}, interContext{}, splitRemote{};
  runMockWorlds(kInterWorld, [&](World& world) {
    const auto r = static_cast<std::size_t>(world.rank());
    std::unique_ptr<Communicator> local;
    auto inter = makeTestIntercomm(world, local);
    const bool inA = world.rank() % 2 == 0;
    mergedHighA[r] = mergeIntercomm(*inter, inA)->group().worldRanks();
    mergedSame[r] = mergeIntercomm(*inter, false)->group().worldRanks();
    auto dup = dupCommunicator(*inter);
    interContext[r] = inter->contextId();
    dupContext[r] = dup->contextId();
    CHECK(dup->isInter());
    CHECK(compareCommunicators(*inter, *dup) == MPI_CONGRUENT);
    // Color by local rank parity: color 0 is A's ranks 0, 2 (world 0, 4) and B's rank 0
    // (world 1); color 1 is A's rank 1 (world 2) and B's rank 1 (world 3).
    auto part = splitCommunicator(*inter, inter->rank() % 2, 0);
    splitRemote[r] = part ? part->remoteGroup().size() : -1;
  });
  for (std::size_t r = 0; r < kInterWorld; ++r) {
    CHECK(mergedHighA[r] == std::vector<int>{1, 3, 0, 2, 4});
    CHECK(mergedSame[r] == std::vector<int>{0, 2, 4, 1, 3});
    CHECK(dupContext[r] == dupContext[0]);
    CHECK(dupContext[r] > interContext[r] + 1);
  }
  CHECK(splitRemote == std::array<int, kInterWorld>{1, 2, 1, 1, 1});
}

TEST_CASE("an intercommunicator allreduce goes members -> leader -> leader -> members", "[coll][inter][mock]") {
  std::array<std::vector<int>, kInterWorld> results;
  int bridgeCollective = -1;
  auto network = runMockWorlds(kInterWorld, [&](World& world) {
    std::unique_ptr<Communicator> local;
    auto inter = makeTestIntercomm(world, local);
    if (world.rank() == 0) bridgeCollective = inter->bridge->collectiveContext();
    std::vector<int> mine{world.rank(), 1}, out(2, -1);
    coll::run(*coll::planInterAllreduce(*inter, mine.data(), out.data(), 2, intType(), op(MPI_SUM)));
    results[static_cast<std::size_t>(world.rank())] = out;
  });
  for (int r = 0; r < kInterWorld; ++r) {
    const bool inA = r % 2 == 0;
    CHECK(results[static_cast<std::size_t>(r)] == (inA ? std::vector<int>{1 + 3, 2} : std::vector<int>{0 + 2 + 4, 3}));
  }
  std::vector<std::pair<int, int>> pairs;  // (from, to) in world ranks, on the bridge
  for (const SentRecord& m : network->sent()) {
    if (m.envelope.context == bridgeCollective) pairs.emplace_back(m.from, m.to);
  }
  std::sort(pairs.begin(), pairs.end());
  // To the leaders: 2 -> 0, 4 -> 0, 3 -> 1; between them: 0 <-> 1; back: 0 -> 2, 0 -> 4, 1 -> 3.
  const std::vector<std::pair<int, int>> expected{{0, 1}, {0, 2}, {0, 4}, {1, 0}, {1, 3}, {2, 0}, {3, 1}, {4, 0}};
  CHECK(pairs == expected);
}

TEST_CASE("an intercommunicator bcast goes from the root to each remote process only", "[coll][inter][mock]") {
  std::array<std::vector<int>, kInterWorld> results;
  int bridgeCollective = -1;
  auto network = runMockWorlds(kInterWorld, [&](World& world) {
    std::unique_ptr<Communicator> local;
    auto inter = makeTestIntercomm(world, local);
    if (world.rank() == 0) bridgeCollective = inter->bridge->collectiveContext();
    // Root: B's rank 1 (world 3); A receives, B's others pass MPI_PROC_NULL.
    const bool inA = world.rank() % 2 == 0;
    const int root = inA ? 1 : (inter->rank() == 1 ? MPI_ROOT : MPI_PROC_NULL);
    std::vector<int> data = root == MPI_ROOT ? std::vector<int>{5, 6, 7} : std::vector<int>(3, -1);
    coll::run(*coll::planInterBcast(*inter, data.data(), 3, &intType(), root));
    results[static_cast<std::size_t>(world.rank())] = data;
  });
  for (int r = 0; r < kInterWorld; ++r) {
    const bool receives = r % 2 == 0 || r == 3;
    CHECK(results[static_cast<std::size_t>(r)] == (receives ? std::vector<int>{5, 6, 7} : std::vector<int>(3, -1)));
  }
  std::vector<std::pair<int, int>> pairs;
  for (const SentRecord& m : network->sent()) {
    if (m.envelope.context == bridgeCollective) pairs.emplace_back(m.from, m.to);
  }
  std::sort(pairs.begin(), pairs.end());
  CHECK(pairs == std::vector<std::pair<int, int>>{{3, 0}, {3, 2}, {3, 4}});
}
