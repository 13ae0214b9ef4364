#include "mpi/comm/intercomm.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "mpi/comm/agreement.h"
#include "mpi/comm/group_ops.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {
namespace {

using Ranks = std::vector<int>;

// The pair of context ids (intercommunicator, bridge) every process with a floor in
// `floors` agrees on; raises this process's floor past both.
int claimContextPair(World& world, int largestFloor) {
  if (largestFloor >= (1 << 30) - 2) fail(MPI_ERR_INTERN, "context ids exhausted");
  world.raiseContextIdFloor(largestFloor + 2);
  return largestFloor;
}

// An intercommunicator between `local` and `remote` (world ranks) with context `contextId`
// and its bridge with `contextId + 1`; null if the calling process is not in `local`.
std::unique_ptr<Communicator> makeIntercomm(World& world, Ranks local, Ranks remote, int contextId, bool localFirst,
                                            Errhandler* errhandler) {
  if (std::find(local.begin(), local.end(), world.rank()) == local.end()) return nullptr;
  Ranks both = localFirst ? local : remote;
  const Ranks& second = localFirst ? remote : local;
  both.insert(both.end(), second.begin(), second.end());
  auto* localGroup = new Group(std::move(local));
  auto* remoteGroup = new Group(std::move(remote));
  auto* bridgeGroup = new Group(std::move(both));
  auto inter = std::make_unique<Communicator>(world, localGroup, remoteGroup, contextId, errhandler);
  inter->localFirst = localFirst;
  inter->bridge = std::make_unique<Communicator>(world, bridgeGroup, contextId + 1, errhandler);
  inter->bridge->name = "intercommunicator bridge";
  localGroup->release();
  remoteGroup->release();
  bridgeGroup->release();
  return inter;
}

// The allgather over the bridge every later constructor starts with: `mine` from each
// process, indexed by bridge rank.
Ranks allgatherOverBridge(Communicator& inter, const Ranks& mine) { return allgatherInts(*inter.bridge, mine); }

// The members of one group whose entry (of `width` ints, in `all` by bridge rank) passes
// `keep`, ordered by `orderOf` (then group rank), as world ranks.
template <typename Keep, typename Order>
Ranks chooseMembers(Communicator& inter, bool local, const Ranks& all, int width, Keep keep, Order orderOf) {
  Group& group = local ? inter.group() : inter.remoteGroup();
  std::vector<std::tuple<int, int>> chosen;  // (order, group rank)
  for (int r = 0; r < group.size(); ++r) {
    const int b = local ? inter.bridgeRankOfLocal(r) : inter.bridgeRankOfRemote(r);
    const int* entry = all.data() + static_cast<std::ptrdiff_t>(b) * width;
    if (keep(entry)) chosen.emplace_back(orderOf(entry), r);
  }
  std::sort(chosen.begin(), chosen.end());
  Ranks world;
  for (const auto& [order, r] : chosen) world.push_back(group.worldRankOf(r));
  return world;
}

int largestFloor(const Ranks& all, int width, int index) {
  int largest = 0;
  for (std::size_t i = static_cast<std::size_t>(index); i < all.size(); i += static_cast<std::size_t>(width)) {
    largest = std::max(largest, all[i]);
  }
  return largest;
}

void requireDisjoint(const Ranks& local, const Ranks& remote) {
  for (int w : remote) {
    if (std::find(local.begin(), local.end(), w) != local.end()) {
      fail(MPI_ERR_COMM, "the local and remote groups overlap (world rank " + std::to_string(w) + " is in both)");
    }
  }
}

}  // namespace

std::unique_ptr<Communicator> createIntercomm(Communicator& local, int localLeader, const LeaderExchange& exchange) {
  World& world = local.world();
  const Ranks localWorld = local.group().worldRanks();
  const Ranks floors = allgatherInts(local, {world.contextIdFloor()});
  const int localFloor = *std::max_element(floors.begin(), floors.end());

  // The leader's word to its group: [error class] on failure, else [0, remote floor,
  // remote leader, remote size, remote world ranks...].
  Ranks word;
  std::string leaderError;
  if (local.rank() == localLeader) {
    try {
      Ranks mine = {localFloor, localLeader, local.size()};
      mine.insert(mine.end(), localWorld.begin(), localWorld.end());
      const Ranks theirs = exchange(mine);
      if (theirs.size() < 3 || theirs[2] < 1 || theirs.size() != 3 + static_cast<std::size_t>(theirs[2]) ||
          theirs[1] < 0 || theirs[1] >= theirs[2]) {
        fail(MPI_ERR_INTERN, "the remote leader sent a malformed group description");
      }
      requireDisjoint(localWorld, Ranks(theirs.begin() + 3, theirs.end()));
      word = {MPI_SUCCESS};
      word.insert(word.end(), theirs.begin(), theirs.end());
    } catch (const MpiError& error) {
      word = {error.code()};
      leaderError = error.what();
    }
  }
  bcastInts(local, localLeader, word);
  if (word.empty()) fail(MPI_ERR_INTERN, "empty word from the local leader");
  if (word[0] != MPI_SUCCESS) {
    fail(word[0], local.rank() == localLeader ? leaderError
                                              : "the local leader (rank " + std::to_string(localLeader) +
                                                    ") failed to set up the intercommunicator; see its error");
  }
  const int remoteLeader = word[2];
  const Ranks remoteWorld(word.begin() + 4, word.end());
  const int contextId = claimContextPair(world, std::max(localFloor, word[1]));
  const bool localFirst =
      localWorld[static_cast<std::size_t>(localLeader)] < remoteWorld[static_cast<std::size_t>(remoteLeader)];
  return makeIntercomm(world, localWorld, remoteWorld, contextId, localFirst, local.errhandler());
}

std::unique_ptr<Communicator> mergeIntercomm(Communicator& inter, bool high) {
  const Ranks all = allgatherOverBridge(inter, {high ? 1 : 0, inter.world().contextIdFloor()});
  const Ranks& bridgeWorld = inter.bridge->group().worldRanks();
  const auto firstSize = static_cast<std::ptrdiff_t>(inter.localFirst ? inter.size() : inter.remoteGroup().size());
  const bool firstHigh = all[0] != 0;
  const bool secondHigh = all[static_cast<std::size_t>(2 * firstSize)] != 0;
  Ranks ordered;
  if (firstHigh && !secondHigh) {
    ordered.assign(bridgeWorld.begin() + firstSize, bridgeWorld.end());
    ordered.insert(ordered.end(), bridgeWorld.begin(), bridgeWorld.begin() + firstSize);
  } else {
    ordered = bridgeWorld;
  }
  Ranks floors;
  for (std::size_t i = 1; i < all.size(); i += 2) floors.push_back(all[i]);
  const int contextId = claimContextId(inter.world(), floors);
  auto* group = new Group(std::move(ordered));
  auto merged = std::make_unique<Communicator>(inter.world(), group, contextId, inter.errhandler());
  group->release();
  return merged;
}

std::unique_ptr<Communicator> dupIntercomm(Communicator& inter) {
  const Ranks all = allgatherOverBridge(inter, {inter.world().contextIdFloor()});
  const int contextId = claimContextPair(inter.world(), largestFloor(all, 1, 0));
  return makeIntercomm(inter.world(), inter.group().worldRanks(), inter.remoteGroup().worldRanks(), contextId,
                       inter.localFirst, inter.errhandler());
}

std::unique_ptr<Communicator> splitIntercomm(Communicator& inter, int color, int key) {
  if (color < 0 && color != MPI_UNDEFINED) {
    fail(MPI_ERR_ARG, "color " + std::to_string(color) + " is negative and not MPI_UNDEFINED");
  }
  const Ranks all = allgatherOverBridge(inter, {color, key, inter.world().contextIdFloor()});
  // One pair of ids for every color: the colors' member sets are disjoint.
  const int contextId = claimContextPair(inter.world(), largestFloor(all, 3, 2));
  if (color == MPI_UNDEFINED) return nullptr;
  auto sameColor = [color](const int* entry) { return entry[0] == color; };
  auto byKey = [](const int* entry) { return entry[1]; };
  Ranks local = chooseMembers(inter, true, all, 3, sameColor, byKey);
  Ranks remote = chooseMembers(inter, false, all, 3, sameColor, byKey);
  if (remote.empty()) return nullptr;
  return makeIntercomm(inter.world(), std::move(local), std::move(remote), contextId, inter.localFirst,
                       inter.errhandler());
}

std::unique_ptr<Communicator> createFromIntercomm(Communicator& inter, Group& group) {
  for (int i = 0; i < group.size(); ++i) {
    if (inter.group().rankOfWorld(group.worldRankOf(i)) == MPI_UNDEFINED) {
      fail(MPI_ERR_GROUP, "group rank " + std::to_string(i) + " (world rank " + std::to_string(group.worldRankOf(i)) +
                              ") is not a member of the intercommunicator's local group");
    }
  }
  const int position = group.rankOfWorld(inter.world().rank());
  const int mine = position == MPI_UNDEFINED ? -1 : position;
  const Ranks all = allgatherOverBridge(inter, {mine, inter.world().contextIdFloor()});
  const int contextId = claimContextPair(inter.world(), largestFloor(all, 2, 1));
  if (mine < 0) return nullptr;
  auto member = [](const int* entry) { return entry[0] >= 0; };
  auto byPosition = [](const int* entry) { return entry[0]; };
  Ranks local = chooseMembers(inter, true, all, 2, member, byPosition);
  Ranks remote = chooseMembers(inter, false, all, 2, member, byPosition);
  if (remote.empty()) return nullptr;
  return makeIntercomm(inter.world(), std::move(local), std::move(remote), contextId, inter.localFirst,
                       inter.errhandler());
}

int compareIntercomms(Communicator& first, Communicator& second) {
  const int local = compareGroups(first.group(), second.group());
  const int remote = compareGroups(first.remoteGroup(), second.remoteGroup());
  if (local == MPI_UNEQUAL || remote == MPI_UNEQUAL) return MPI_UNEQUAL;
  if (local == MPI_IDENT && remote == MPI_IDENT) return MPI_CONGRUENT;
  return MPI_SIMILAR;
}

}  // namespace zmpi::mpi
