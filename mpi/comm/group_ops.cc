#include "mpi/comm/group_ops.h"

#include <algorithm>
#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi {
namespace {

std::string element(const char* argument, std::size_t index) {
  return std::string(argument) + "[" + std::to_string(index) + "]";
}

void requireRank(const Group& group, int rank, const std::string& what) {
  if (rank < 0 || rank >= group.size()) {
    fail(MPI_ERR_RANK, what + " = " + std::to_string(rank) + " is not a rank of the group (size " +
                           std::to_string(group.size()) + ")");
  }
}

// Validates `ranks` (in range, no repeats) and marks them in a per-rank table.
std::vector<bool> markRanks(const Group& group, const std::vector<int>& ranks, const char* argument) {
  std::vector<bool> marked(static_cast<std::size_t>(group.size()), false);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    requireRank(group, ranks[i], element(argument, i));
    if (marked[static_cast<std::size_t>(ranks[i])]) {
      fail(MPI_ERR_RANK, element(argument, i) + " = " + std::to_string(ranks[i]) + " appears more than once");
    }
    marked[static_cast<std::size_t>(ranks[i])] = true;
  }
  return marked;
}

// Expands (first, last, stride) triplets into the ranks they name, in order.
std::vector<int> expandRanges(const Group& group, const std::vector<std::array<int, 3>>& ranges) {
  std::vector<int> ranks;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const auto [first, last, stride] = ranges[i];
    const std::string which = element("ranges", i);
    if (stride == 0) fail(MPI_ERR_ARG, which + " has stride 0");
    requireRank(group, first, which + " first");
    requireRank(group, last, which + " last");
    if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
      fail(MPI_ERR_ARG, which + " = (" + std::to_string(first) + ", " + std::to_string(last) + ", " +
                            std::to_string(stride) + ") runs away from its last rank");
    }
    for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) ranks.push_back(static_cast<int>(r));
  }
  return ranks;
}

bool contains(const Group& group, int worldRank) { return group.rankOfWorld(worldRank) != MPI_UNDEFINED; }

}  // namespace

std::vector<int> groupIncl(const Group& group, const std::vector<int>& ranks) {
  markRanks(group, ranks, "ranks");
  std::vector<int> members;
  members.reserve(ranks.size());
  for (int r : ranks) members.push_back(group.worldRankOf(r));
  return members;
}

std::vector<int> groupExcl(const Group& group, const std::vector<int>& ranks) {
  const std::vector<bool> excluded = markRanks(group, ranks, "ranks");
  std::vector<int> members;
  for (int r = 0; r < group.size(); ++r) {
    if (!excluded[static_cast<std::size_t>(r)]) members.push_back(group.worldRankOf(r));
  }
  return members;
}

std::vector<int> groupRangeIncl(const Group& group, const std::vector<std::array<int, 3>>& ranges) {
  return groupIncl(group, expandRanges(group, ranges));
}

std::vector<int> groupRangeExcl(const Group& group, const std::vector<std::array<int, 3>>& ranges) {
  return groupExcl(group, expandRanges(group, ranges));
}

std::vector<int> groupUnion(const Group& first, const Group& second) {
  std::vector<int> members = first.worldRanks();
  for (int w : second.worldRanks()) {
    if (!contains(first, w)) members.push_back(w);
  }
  return members;
}

std::vector<int> groupIntersection(const Group& first, const Group& second) {
  std::vector<int> members;
  for (int w : first.worldRanks()) {
    if (contains(second, w)) members.push_back(w);
  }
  return members;
}

std::vector<int> groupDifference(const Group& first, const Group& second) {
  std::vector<int> members;
  for (int w : first.worldRanks()) {
    if (!contains(second, w)) members.push_back(w);
  }
  return members;
}

std::vector<int> translateRanks(const Group& from, const std::vector<int>& ranks, const Group& to) {
  std::vector<int> out(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == MPI_PROC_NULL) {
      out[i] = MPI_PROC_NULL;
      continue;
    }
    requireRank(from, ranks[i], element("ranks1", i));
    out[i] = to.rankOfWorld(from.worldRankOf(ranks[i]));
  }
  return out;
}

int compareGroups(const Group& first, const Group& second) {
  if (first.worldRanks() == second.worldRanks()) return MPI_IDENT;
  if (first.size() != second.size()) return MPI_UNEQUAL;
  for (int w : first.worldRanks()) {
    if (!contains(second, w)) return MPI_UNEQUAL;
  }
  return MPI_SIMILAR;
}

}  // namespace zmpi::mpi
