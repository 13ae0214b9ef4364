#pragma once
// A group: an ordered set of processes, named by their ranks in MPI_COMM_WORLD.
#include <atomic>
#include <vector>

#include <mpi.h>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Group {
 public:
  explicit Group(std::vector<int> worldRanks);
  ~Group();
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

  int size() const { return static_cast<int>(worldRanks_.size()); }
  int worldRankOf(int rank) const { return worldRanks_[rank]; }
  // This group's rank of a world rank, or MPI_UNDEFINED.
  int rankOfWorld(int worldRank) const;
  const std::vector<int>& worldRanks() const { return worldRanks_; }

  MPI_Group handle() { return publicHandle_; }
  void setPublicHandle(MPI_Group handle) { publicHandle_ = handle; }

  void retain() { refs_.fetch_add(1); }
  void release();
  void markPredefined() { predefined_ = true; }

 private:
  ompi_group_t handle_;
  MPI_Group publicHandle_ = &handle_;
  std::vector<int> worldRanks_;
  std::vector<int> worldToGroup_;  // dense inverse map; -1 where absent
  std::atomic<int> refs_{1};
  bool predefined_ = false;
};

Group* groupOf(MPI_Group handle);  // throws MPI_ERR_GROUP
// As groupOf, with a message naming the argument (and MPI_GROUP_NULL as such).
Group& groupOf(MPI_Group handle, const char* argument);

}  // namespace zmpi::mpi
