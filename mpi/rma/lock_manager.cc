#include "mpi/rma/lock_manager.h"

#include <mpi.h>

#include <algorithm>
#include <string>

#include "mpi/core/error.h"

namespace zmpi::mpi::rma {

bool LockManager::grantable(Type type) const {
  if (exclusive_ >= 0) return false;
  return type == Type::Shared || shared_ == 0;
}

void LockManager::grant(int origin, Type type) {
  if (type == Type::Exclusive) {
    exclusive_ = origin;
  } else {
    ++shared_;
    sharedOrigins_.push_back(origin);
  }
}

std::vector<int> LockManager::request(int origin, Type type) {
  if (queue_.empty() && grantable(type)) {
    grant(origin, type);
    return {origin};
  }
  queue_.push_back({origin, type});
  return {};
}

std::vector<int> LockManager::grantWaiters() {
  std::vector<int> granted;
  while (!queue_.empty() && grantable(queue_.front().type)) {
    grant(queue_.front().origin, queue_.front().type);
    granted.push_back(queue_.front().origin);
    queue_.pop_front();
  }
  return granted;
}

std::vector<int> LockManager::release(int origin, Type type) {
  if (type == Type::Exclusive) {
    if (exclusive_ != origin) {
      fail(MPI_ERR_RMA_SYNC, "rank " + std::to_string(origin) + " released an exclusive lock it does not hold");
    }
    exclusive_ = -1;
  } else {
    auto it = std::find(sharedOrigins_.begin(), sharedOrigins_.end(), origin);
    if (it == sharedOrigins_.end()) {
      fail(MPI_ERR_RMA_SYNC, "rank " + std::to_string(origin) + " released a shared lock it does not hold");
    }
    sharedOrigins_.erase(it);
    --shared_;
  }
  return grantWaiters();
}

}  // namespace zmpi::mpi::rma
