// Active-target synchronization (MPI 3.1 sections 11.5.1-2): fence, and
// post/start/complete/wait (PSCW).
//
// Fence = flush every target this rank wrote to since the last fence, wait for pending
// replies, then a barrier: once every rank is past it, every operation of the epoch has
// been applied everywhere.
// PSCW: Post messages tell each origin the target is exposed (Win_start waits for them);
// Complete follows the epoch's operations on the same FIFO channel, so when Win_wait has
// counted a Complete from every origin, their operations have all been applied.
#include <algorithm>
#include <string>

#include "mpi/comm/group.h"
#include "mpi/core/error.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/window.h"

namespace zmpi::mpi::rma {

std::vector<int> Window::ranksOf(const Group& group, const char* what) const {
  std::vector<int> ranks;
  ranks.reserve(static_cast<std::size_t>(group.size()));
  for (int member = 0; member < group.size(); ++member) {
    const int rank = comm_->group().rankOfWorld(group.worldRankOf(member));
    if (rank == MPI_UNDEFINED) {
      fail(MPI_ERR_GROUP,
           std::string(what) + ": group member " + std::to_string(member) + " is not a process of the window");
    }
    ranks.push_back(rank);
  }
  return ranks;
}

void Window::fence(int assert) {
  {
    std::lock_guard guard(mutex_);
    const bool locked = std::any_of(locks_.begin(), locks_.end(), [](LockState s) { return s != LockState::None; });
    if (locked || lockAll_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_fence inside a passive-target (lock) epoch");
    if (accessEpoch_ || exposureEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_fence inside a PSCW epoch");
  }
  std::vector<int> everyone(static_cast<std::size_t>(size()));
  for (int r = 0; r < size(); ++r) {
    everyone[static_cast<std::size_t>(r)] = r;
    flushTarget(r);
  }
  waitReplies(everyone);
  { std::lock_guard serial(targetMutex_); }  // as in post(): our accesses before their puts
  barrier(*comm_);
  {
    std::lock_guard guard(mutex_);
    fenceEpoch_ = (assert& MPI_MODE_NOSUCCEED) == 0;
    noteOpenToAll();
  }
  raiseDeferredError();
}

void Window::post(const Group& group, int assert) {
  const std::vector<int> origins = ranksOf(group, "MPI_Win_post");
  {
    std::lock_guard guard(mutex_);
    if (exposureEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_post while an exposure epoch is already open");
    exposureEpoch_ = true;
    exposureGroup_ = origins;
  }
  // The program's accesses to its window before MPI_Win_post happen before the origins'
  // puts land, and those are applied under targetMutex_ by the progress thread. The order
  // runs through another process (our post, their put), which ThreadSanitizer cannot
  // follow; passing through the same mutex here states it inside this process too.
  { std::lock_guard serial(targetMutex_); }
  if ((assert& MPI_MODE_NOCHECK) != 0) return;  // the origins do not wait for us
  for (int origin : origins) send(RmaKind::Post, origin, 0, 0, 0, zmq::message_t());
}

void Window::start(const Group& group, int assert) {
  const std::vector<int> targets = ranksOf(group, "MPI_Win_start");
  std::unique_lock guard(mutex_);
  if (accessEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_start while an access epoch is already open");
  if ((assert& MPI_MODE_NOCHECK) == 0) {
    // Every target has posted; a target listed twice must have posted twice.
    std::vector<int> needed(posts_.size(), 0);
    for (int t : targets) ++needed[static_cast<std::size_t>(t)];
    waitFor(guard, [&] {
      for (std::size_t t = 0; t < needed.size(); ++t) {
        if (posts_[t] < needed[t]) return false;
      }
      return true;
    });
    for (std::size_t t = 0; t < needed.size(); ++t) posts_[t] -= needed[t];
  }
  accessEpoch_ = true;
  accessGroup_ = targets;
  for (int t : targets) inAccessGroup_[static_cast<std::size_t>(t)] = 1;
}

void Window::complete() {
  std::vector<int> targets;
  {
    std::lock_guard guard(mutex_);
    if (!accessEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start");
    targets = accessGroup_;
  }
  waitReplies(targets);  // gets and fetches of the epoch have landed here
  for (int t : targets) send(RmaKind::Complete, t, 0, 0, 0, zmq::message_t());
  {
    std::lock_guard guard(mutex_);
    for (int t : targets) {
      inAccessGroup_[static_cast<std::size_t>(t)] = 0;
      dirty_[static_cast<std::size_t>(t)] = 0;  // the Complete orders after them, as a flush would
    }
    accessEpoch_ = false;
    accessGroup_.clear();
  }
  raiseDeferredError();
}

void Window::wait() {
  std::unique_lock guard(mutex_);
  if (!exposureEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_wait without MPI_Win_post");
  const int expected = static_cast<int>(exposureGroup_.size());
  waitFor(guard, [&] { return completes_ >= expected; });
  completes_ -= expected;
  exposureEpoch_ = false;
  exposureGroup_.clear();
}

bool Window::test() {
  std::lock_guard guard(mutex_);
  if (!exposureEpoch_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_test without MPI_Win_post");
  const int expected = static_cast<int>(exposureGroup_.size());
  if (completes_ < expected) return false;
  completes_ -= expected;
  exposureEpoch_ = false;
  exposureGroup_.clear();
  return true;
}

}  // namespace zmpi::mpi::rma
