// Group constructors and queries (comm/group_ops.h): MPI's orders, set operations,
// translation, comparison, and the error classes of bad arguments.
#include "mpi/comm/group_ops.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "mpi/core/error.h"

using namespace zmpi::mpi;

namespace {

// Groups are reference counted and normally freed by release(); a test owns one outright.
struct OwnedGroup {
  explicit OwnedGroup(std::vector<int> worldRanks) : group(new Group(std::move(worldRanks))) {}
  ~OwnedGroup() { group->release(); }
  OwnedGroup(const OwnedGroup&) = delete;
  OwnedGroup& operator=(const OwnedGroup&) = delete;
  Group& operator*() const { return *group; }
  Group* group;
};

int errorClassOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const MpiError& error) {
    return error.code();
  }
  return MPI_SUCCESS;
}

using Ranks = std::vector<int>;

}  // namespace

TEST_CASE("incl keeps the given order and excl the group's", "[group]") {
  OwnedGroup g(Ranks{10, 11, 12, 13, 14});
  CHECK(groupIncl(*g, {3, 0, 2}) == Ranks{13, 10, 12});
  CHECK(groupIncl(*g, {}).empty());
  CHECK(groupExcl(*g, {3, 0}) == Ranks{11, 12, 14});
  CHECK(groupExcl(*g, {}) == Ranks{10, 11, 12, 13, 14});
}

TEST_CASE("incl and excl reject ranks outside the group and repeats with MPI_ERR_RANK", "[group]") {
  OwnedGroup g(Ranks{0, 1, 2});
  CHECK(errorClassOf([&] { groupIncl(*g, {0, 3}); }) == MPI_ERR_RANK);
  CHECK(errorClassOf([&] { groupIncl(*g, {-1}); }) == MPI_ERR_RANK);
  CHECK(errorClassOf([&] { groupIncl(*g, {1, 1}); }) == MPI_ERR_RANK);
  CHECK(errorClassOf([&] { groupExcl(*g, {2, 2}); }) == MPI_ERR_RANK);
  try {
    groupIncl(*g, {0, 7});
  } catch (const MpiError& error) {
    CHECK(std::string(error.what()) == "ranks[1] = 7 is not a rank of the group (size 3)");
  }
}

TEST_CASE("range_incl expands triplets in order, forwards and backwards", "[group]") {
  OwnedGroup g(Ranks{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(groupRangeIncl(*g, {{0, 9, 3}}) == Ranks{0, 3, 6, 9});
  CHECK(groupRangeIncl(*g, {{8, 2, -3}, {1, 1, 1}}) == Ranks{8, 5, 2, 1});
  CHECK(groupRangeExcl(*g, {{0, 9, 2}}) == Ranks{1, 3, 5, 7, 9});
  CHECK(groupRangeExcl(*g, {{0, 9, 1}}).empty());
}

TEST_CASE("malformed ranges are errors naming the range", "[group]") {
  OwnedGroup g(Ranks{0, 1, 2, 3});
  CHECK(errorClassOf([&] { groupRangeIncl(*g, {{0, 3, 0}}); }) == MPI_ERR_ARG);
  CHECK(errorClassOf([&] { groupRangeIncl(*g, {{3, 0, 1}}); }) == MPI_ERR_ARG);
  CHECK(errorClassOf([&] { groupRangeIncl(*g, {{0, 4, 1}}); }) == MPI_ERR_RANK);
  CHECK(errorClassOf([&] { groupRangeIncl(*g, {{0, 2, 1}, {2, 3, 1}}); }) == MPI_ERR_RANK);  // 2 twice
}

TEST_CASE("union, intersection and difference follow the first group's order", "[group]") {
  OwnedGroup a(Ranks{5, 1, 3, 7});
  OwnedGroup b(Ranks{2, 3, 9, 5});
  CHECK(groupUnion(*a, *b) == Ranks{5, 1, 3, 7, 2, 9});
  CHECK(groupUnion(*b, *a) == Ranks{2, 3, 9, 5, 1, 7});
  CHECK(groupIntersection(*a, *b) == Ranks{5, 3});
  CHECK(groupIntersection(*b, *a) == Ranks{3, 5});
  CHECK(groupDifference(*a, *b) == Ranks{1, 7});
  CHECK(groupDifference(*b, *a) == Ranks{2, 9});

  OwnedGroup empty(Ranks{});
  CHECK(groupUnion(*empty, *a) == a.group->worldRanks());
  CHECK(groupIntersection(*a, *empty).empty());
  CHECK(groupDifference(*a, *a).empty());
}

TEST_CASE("translate_ranks maps through world ranks, keeping MPI_PROC_NULL", "[group]") {
  OwnedGroup from(Ranks{4, 2, 0, 6});
  OwnedGroup to(Ranks{0, 2, 4});
  CHECK(translateRanks(*from, {0, 1, 2, 3, MPI_PROC_NULL}, *to) == Ranks{2, 1, 0, MPI_UNDEFINED, MPI_PROC_NULL});
  CHECK(errorClassOf([&] { translateRanks(*from, {4}, *to); }) == MPI_ERR_RANK);
}

TEST_CASE("compare tells identical, similar and unequal groups apart", "[group]") {
  OwnedGroup a(Ranks{0, 1, 2});
  OwnedGroup same(Ranks{0, 1, 2});
  OwnedGroup shuffled(Ranks{2, 0, 1});
  OwnedGroup other(Ranks{0, 1, 3});
  OwnedGroup smaller(Ranks{0, 1});
  CHECK(compareGroups(*a, *a) == MPI_IDENT);
  CHECK(compareGroups(*a, *same) == MPI_IDENT);
  CHECK(compareGroups(*a, *shuffled) == MPI_SIMILAR);
  CHECK(compareGroups(*a, *other) == MPI_UNEQUAL);
  CHECK(compareGroups(*a, *smaller) == MPI_UNEQUAL);
  OwnedGroup e1(Ranks{}), e2(Ranks{});
  CHECK(compareGroups(*e1, *e2) == MPI_IDENT);
}

TEST_CASE("a group knows each member's rank and no one else's", "[group]") {
  OwnedGroup g(Ranks{7, 3, 5});
  CHECK(g.group->rankOfWorld(3) == 1);
  CHECK(g.group->rankOfWorld(4) == MPI_UNDEFINED);
  CHECK(g.group->rankOfWorld(100) == MPI_UNDEFINED);
}
