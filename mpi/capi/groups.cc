// Group entry points: queries, the constructors (incl/excl/ranges/set operations),
// translation, comparison and freeing. The operations themselves: comm/group_ops.h.
// Empty results are MPI_GROUP_EMPTY, as in Open MPI, so programs may compare with it.
#include <array>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/comm/group_ops.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

MPI_Group publish(std::vector<int> worldRanks) {
  if (worldRanks.empty()) return MPI_GROUP_EMPTY;
  return (new Group(std::move(worldRanks)))->handle();
}

std::vector<int> rankList(int n, const int* ranks, const char* name) {
  countArg(n, "n");
  if (n > 0) pointerArg(ranks, name);
  return std::vector<int>(ranks, ranks + n);
}

std::vector<std::array<int, 3>> rangeList(int n, int ranges[][3]) {
  countArg(n, "n");
  if (n > 0) pointerArg(ranges, "ranges");
  std::vector<std::array<int, 3>> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = {ranges[i][0], ranges[i][1], ranges[i][2]};
  return out;
}

template <typename Build>
int construct(const char* call, MPI_Group* newgroup, Build&& build) {
  return guarded(call, [&] {
    requireWorld();
    pointerArg(newgroup, "newgroup");
    *newgroup = publish(build());
    return MPI_SUCCESS;
  });
}

}  // namespace

extern "C" {

int PMPI_Group_size(MPI_Group group, int* size) {
  return guarded("MPI_Group_size", [&] {
    requireWorld();
    Group& g = groupOf(group, "group");
    pointerArg(size, "size");
    *size = g.size();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Group_size)

int PMPI_Group_rank(MPI_Group group, int* rank) {
  return guarded("MPI_Group_rank", [&] {
    World& world = requireWorld();
    Group& g = groupOf(group, "group");
    pointerArg(rank, "rank");
    *rank = g.rankOfWorld(world.rank());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Group_rank)

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return construct("MPI_Group_incl", newgroup,
                   [&] { return groupIncl(groupOf(group, "group"), rankList(n, ranks, "ranks")); });
}
ZMPI_ALIAS(MPI_Group_incl)

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return construct("MPI_Group_excl", newgroup,
                   [&] { return groupExcl(groupOf(group, "group"), rankList(n, ranks, "ranks")); });
}
ZMPI_ALIAS(MPI_Group_excl)

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return construct("MPI_Group_range_incl", newgroup,
                   [&] { return groupRangeIncl(groupOf(group, "group"), rangeList(n, ranges)); });
}
ZMPI_ALIAS(MPI_Group_range_incl)

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return construct("MPI_Group_range_excl", newgroup,
                   [&] { return groupRangeExcl(groupOf(group, "group"), rangeList(n, ranges)); });
}
ZMPI_ALIAS(MPI_Group_range_excl)

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return construct("MPI_Group_union", newgroup,
                   [&] { return groupUnion(groupOf(group1, "group1"), groupOf(group2, "group2")); });
}
ZMPI_ALIAS(MPI_Group_union)

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return construct("MPI_Group_intersection", newgroup,
                   [&] { return groupIntersection(groupOf(group1, "group1"), groupOf(group2, "group2")); });
}
ZMPI_ALIAS(MPI_Group_intersection)

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return construct("MPI_Group_difference", newgroup,
                   [&] { return groupDifference(groupOf(group1, "group1"), groupOf(group2, "group2")); });
}
ZMPI_ALIAS(MPI_Group_difference)

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  return guarded("MPI_Group_translate_ranks", [&] {
    requireWorld();
    Group& from = groupOf(group1, "group1");
    Group& to = groupOf(group2, "group2");
    std::vector<int> in = rankList(n, ranks1, "ranks1");
    if (n > 0) pointerArg(ranks2, "ranks2");
    std::vector<int> out = translateRanks(from, in, to);
    std::copy(out.begin(), out.end(), ranks2);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Group_translate_ranks)

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  return guarded("MPI_Group_compare", [&] {
    requireWorld();
    Group& first = groupOf(group1, "group1");
    Group& second = groupOf(group2, "group2");
    pointerArg(result, "result");
    *result = compareGroups(first, second);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Group_compare)

// MPI_GROUP_EMPTY may be freed too (Open MPI allows it): it is predefined, so only the
// program's handle goes away.
int PMPI_Group_free(MPI_Group* group) {
  return guarded("MPI_Group_free", [&] {
    pointerArg(group, "group");
    groupOf(*group, "group").release();
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Group_free)

}  // extern "C"
