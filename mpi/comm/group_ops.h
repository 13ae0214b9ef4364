#pragma once
// MPI's group constructors and queries as functions on Group. Constructors return the new
// group's members as world ranks (the caller decides how to wrap an empty result: the C
// API hands out MPI_GROUP_EMPTY). Invalid arguments throw MpiError naming the argument:
// MPI_ERR_RANK for ranks outside the group or repeated, MPI_ERR_ARG for malformed ranges.
#include <array>
#include <vector>

#include "mpi/comm/group.h"

namespace zmpi::mpi {

std::vector<int> groupIncl(const Group& group, const std::vector<int>& ranks);
std::vector<int> groupExcl(const Group& group, const std::vector<int>& ranks);
// Each range is (first, last, stride), as in MPI_Group_range_incl.
std::vector<int> groupRangeIncl(const Group& group, const std::vector<std::array<int, 3>>& ranges);
std::vector<int> groupRangeExcl(const Group& group, const std::vector<std::array<int, 3>>& ranges);

// Set operations in MPI's order: the first group's members first, in its order.
std::vector<int> groupUnion(const Group& first, const Group& second);
std::vector<int> groupIntersection(const Group& first, const Group& second);
std::vector<int> groupDifference(const Group& first, const Group& second);

// `from`'s ranks as ranks of `to`: MPI_UNDEFINED where absent, MPI_PROC_NULL kept.
std::vector<int> translateRanks(const Group& from, const std::vector<int>& ranks, const Group& to);

// MPI_IDENT (same members, same order), MPI_SIMILAR (same members), or MPI_UNEQUAL.
int compareGroups(const Group& first, const Group& second);

}  // namespace zmpi::mpi
