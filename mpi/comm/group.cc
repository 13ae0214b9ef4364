#include "mpi/comm/group.h"

#include <algorithm>
#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi {

Group::Group(std::vector<int> worldRanks) : worldRanks_(std::move(worldRanks)) {
  bindHandle(&handle_, HandleKind::Group, this);
  int maxRank = -1;
  for (int r : worldRanks_) maxRank = std::max(maxRank, r);
  worldToGroup_.assign(static_cast<size_t>(maxRank + 1), -1);
  for (int i = 0; i < size(); ++i) worldToGroup_[worldRanks_[i]] = i;
}

Group::~Group() { retireHandle(handle_.header); }

int Group::rankOfWorld(int worldRank) const {
  if (worldRank < 0 || worldRank >= static_cast<int>(worldToGroup_.size())) return MPI_UNDEFINED;
  int r = worldToGroup_[worldRank];
  return r < 0 ? MPI_UNDEFINED : r;
}

void Group::release() {
  if (refs_.fetch_sub(1) == 1 && !predefined_) delete this;
}

Group* groupOf(MPI_Group handle) {
  if (!isHandleOf(handle, HandleKind::Group) || implOf<Group>(handle) == nullptr) fail(MPI_ERR_GROUP, "invalid group");
  return implOf<Group>(handle);
}

Group& groupOf(MPI_Group handle, const char* argument) {
  if (handle == MPI_GROUP_NULL) fail(MPI_ERR_GROUP, std::string(argument) + " is MPI_GROUP_NULL");
  if (!isHandleOf(handle, HandleKind::Group) || implOf<Group>(handle) == nullptr) {
    fail(MPI_ERR_GROUP, std::string(argument) + " is not a valid group");
  }
  return *implOf<Group>(handle);
}

}  // namespace zmpi::mpi
