#include "mpi/comm/constructors.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include "mpi/comm/agreement.h"
#include "mpi/comm/group_ops.h"
#include "mpi/comm/intercomm.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {
namespace {

// A communicator over `worldRanks` with context `contextId`, inheriting the parent's
// error handler. Null when the calling process is not a member.
std::unique_ptr<Communicator> build(Communicator& parent, std::vector<int> worldRanks, int contextId) {
  auto* group = new Group(std::move(worldRanks));
  std::unique_ptr<Communicator> comm;
  if (group->rankOfWorld(parent.world().rank()) != MPI_UNDEFINED) {
    comm = std::make_unique<Communicator>(parent.world(), group, contextId, parent.errhandler());
  }
  group->release();
  return comm;
}

void requireSubgroup(Communicator& parent, const Group& group) {
  for (int i = 0; i < group.size(); ++i) {
    if (parent.group().rankOfWorld(group.worldRankOf(i)) == MPI_UNDEFINED) {
      fail(MPI_ERR_GROUP, "group rank " + std::to_string(i) + " (world rank " + std::to_string(group.worldRankOf(i)) +
                              ") is not a member of the communicator");
    }
  }
}

// The color MPI_Comm_split_type gives a rank: the lowest parent rank sharing its host.
int hostColor(Communicator& parent, int rank) {
  const std::string& host = parent.world().hostOf(parent.worldRankOf(rank));
  for (int r = 0; r < rank; ++r) {
    if (parent.world().hostOf(parent.worldRankOf(r)) == host) return r;
  }
  return rank;
}

}  // namespace

std::unique_ptr<Communicator> dupCommunicator(Communicator& parent) {
  if (parent.isInter()) return dupIntercomm(parent);
  const int contextId = agreeContextId(parent);
  auto comm = std::make_unique<Communicator>(parent.world(), &parent.group(), contextId, parent.errhandler());
  comm->topology = parent.topology;
  // Attributes are copied by MPI_Comm_dup (capi/communicators.cc): their callbacks take
  // handles and may call back into MPI, which is the C API's business.
  return comm;
}

std::unique_ptr<Communicator> splitCommunicator(Communicator& parent, int color, int key) {
  if (parent.isInter()) return splitIntercomm(parent, color, key);
  if (color < 0 && color != MPI_UNDEFINED) {
    fail(MPI_ERR_ARG, "color " + std::to_string(color) + " is negative and not MPI_UNDEFINED");
  }
  // One round carries everything: each rank's color, key and context-id floor.
  const std::vector<int> all = allgatherInts(parent, {color, key, parent.world().contextIdFloor()});
  const int n = parent.size();
  std::vector<int> floors(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) floors[static_cast<std::size_t>(r)] = all[static_cast<std::size_t>(3 * r + 2)];
  // One id for every color: the colors' member sets are disjoint, so they cannot collide.
  const int contextId = claimContextId(parent.world(), floors);
  if (color == MPI_UNDEFINED) return nullptr;

  std::vector<std::tuple<int, int>> members;  // (key, parent rank)
  for (int r = 0; r < n; ++r) {
    if (all[static_cast<std::size_t>(3 * r)] == color)
      members.emplace_back(all[static_cast<std::size_t>(3 * r + 1)], r);
  }
  std::sort(members.begin(), members.end());
  std::vector<int> worldRanks;
  worldRanks.reserve(members.size());
  for (const auto& [memberKey, rank] : members) worldRanks.push_back(parent.worldRankOf(rank));
  return build(parent, std::move(worldRanks), contextId);
}

std::unique_ptr<Communicator> splitCommunicatorByType(Communicator& parent, int splitType, int key) {
  switch (splitType) {
    case MPI_UNDEFINED:
      return splitCommunicator(parent, MPI_UNDEFINED, key);
    case MPI_COMM_TYPE_SHARED:  // == OMPI_COMM_TYPE_NODE
    case OMPI_COMM_TYPE_HOST:
    case OMPI_COMM_TYPE_BOARD:
    case OMPI_COMM_TYPE_NUMA:
    case OMPI_COMM_TYPE_SOCKET:
    case OMPI_COMM_TYPE_L3CACHE:
      return splitCommunicator(parent, hostColor(parent, parent.rank()), key);
    case OMPI_COMM_TYPE_HWTHREAD:
    case OMPI_COMM_TYPE_CORE:
    case OMPI_COMM_TYPE_L1CACHE:
    case OMPI_COMM_TYPE_L2CACHE:
      return splitCommunicator(parent, parent.rank(), key);
    case OMPI_COMM_TYPE_CU:
    case OMPI_COMM_TYPE_CLUSTER:
      return splitCommunicator(parent, 0, key);
    default:
      fail(MPI_ERR_ARG, "split_type " + std::to_string(splitType) + " is not a communicator type");
  }
}

std::unique_ptr<Communicator> createCommunicator(Communicator& parent, Group& group) {
  if (parent.isInter()) return createFromIntercomm(parent, group);
  requireSubgroup(parent, group);
  const int contextId = agreeContextId(parent);
  return build(parent, group.worldRanks(), contextId);
}

std::unique_ptr<Communicator> createCommunicatorFromGroup(Communicator& parent, Group& group, int tag) {
  requireSubgroup(parent, group);
  if (tag < 0) fail(MPI_ERR_TAG, "tag " + std::to_string(tag) + " is negative");
  if (group.rankOfWorld(parent.world().rank()) == MPI_UNDEFINED) return nullptr;

  // Only the group's members take part, so the parent's collective context (whose
  // sequence numbers every parent rank must advance together) is off limits. They talk
  // instead through a scratch communicator over the parent's group — so envelope sources
  // stay parent ranks, unambiguous across successive calls with different groups — whose
  // negative context id no real communicator has, derived from the parent and the tag.
  const int scratchId = -1 - (((parent.contextId() & 0x3ffff) << 12) | (tag & 0xfff));
  Communicator scratch(parent.world(), &parent.group(), scratchId, parent.errhandler());
  std::vector<int> members(static_cast<std::size_t>(group.size()));
  for (int i = 0; i < group.size(); ++i) {
    members[static_cast<std::size_t>(i)] = parent.group().rankOfWorld(group.worldRankOf(i));
  }
  int contextId;
  {
    coll::Channel channel(scratch);
    contextId = claimContextId(parent.world(), allgatherInts(channel, members, {parent.world().contextIdFloor()}));
  }
  return build(parent, group.worldRanks(), contextId);
}

int compareCommunicators(Communicator& first, Communicator& second) {
  if (&first == &second) return MPI_IDENT;
  if (first.isInter() != second.isInter()) return MPI_UNEQUAL;
  if (first.isInter()) return compareIntercomms(first, second);
  const int groups = compareGroups(first.group(), second.group());
  return groups == MPI_IDENT ? MPI_CONGRUENT : groups;
}

}  // namespace zmpi::mpi
