// Passive-target synchronization (MPI 3.1 section 11.5.3): lock/unlock, lock_all,
// flushes; and the completion machinery the active-target calls share.
//
// A lock request is answered by the target's lock manager (on its side of the wire), at once
// or when the lock frees; MPI_Win_lock waits for the grant, so operations issued in the
// epoch may go out at once. Unlock carries the release and doubles as a flush: its reply
// comes after every earlier operation from this origin was applied at the target.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <utility>

#include "mpi/core/error.h"
#include "mpi/rma/host_locks.h"
#include "mpi/rma/window.h"

namespace zmpi::mpi::rma {
namespace {

bool isNoCheck(int assert) { return (assert& MPI_MODE_NOCHECK) != 0; }

}  // namespace

void Window::flushTarget(int target) {
  {
    std::lock_guard guard(mutex_);
    auto& dirty = dirty_[static_cast<std::size_t>(target)];
    if (!dirty) return;
    dirty = 0;
  }
  send(RmaKind::Flush, target, expectReply(target, nullptr, 0, nullptr), 0, 0, zmq::message_t());
}

void Window::waitReplies(const std::vector<int>& targets) {
  std::unique_lock guard(mutex_);
  waitFor(guard, [&] {
    return std::all_of(targets.begin(), targets.end(),
                       [&](int t) { return pendingPerTarget_[static_cast<std::size_t>(t)] == 0; });
  });
}

void Window::raiseDeferredError() {
  std::unique_lock guard(mutex_);
  if (deferredError_ == MPI_SUCCESS) return;
  const int code = std::exchange(deferredError_, MPI_SUCCESS);
  const std::string message = std::move(deferredMessage_);
  guard.unlock();
  fail(code, message);
}

void Window::lock(int lockType, int target, int assert) {
  if (lockType != MPI_LOCK_SHARED && lockType != MPI_LOCK_EXCLUSIVE) {
    fail(MPI_ERR_LOCKTYPE,
         "lock type " + std::to_string(lockType) + " is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE");
  }
  if (target == MPI_PROC_NULL) return;
  if (target < 0 || target >= size()) {
    fail(MPI_ERR_RANK,
         "target rank " + std::to_string(target) + " is not in the window (size " + std::to_string(size()) + ")");
  }
  const auto t = static_cast<std::size_t>(target);
  const bool exclusive = lockType == MPI_LOCK_EXCLUSIVE;
  {
    std::lock_guard guard(mutex_);
    if (lockAll_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_lock inside an MPI_Win_lock_all epoch");
    if (locks_[t] != LockState::None) fail(MPI_ERR_RMA_SYNC, "rank " + std::to_string(target) + " is already locked");
    if (isNoCheck(assert)) {
      locks_[t] = exclusive ? LockState::NoCheckExclusive : LockState::NoCheckShared;
      return;
    }
  }
  if (hostLocks_) {
    if (exclusive) {
      hostLocks_->lockExclusive(target);
    } else {
      hostLocks_->lockShared(target);
    }
    std::lock_guard guard(mutex_);
    locks_[t] = exclusive ? LockState::Exclusive : LockState::Shared;
    return;
  }
  send(RmaKind::LockRequest, target, 0, lockType, 0, zmq::message_t());
  std::unique_lock guard(mutex_);
  waitFor(guard, [&] { return grants_[t] > 0; });
  --grants_[t];
  locks_[t] = exclusive ? LockState::Exclusive : LockState::Shared;
}

void Window::releaseHostLocks(const std::vector<int>& targets, LockState state) {
  // What went to the targets as messages (windows of the program's memory) has been
  // applied and answered before the lock goes.
  for (int t : targets) flushTarget(t);
  waitReplies(targets);
  __sync_synchronize();  // direct stores before the release, as an unlock message would order them
  for (int t : targets) giveUpHostLock(t, state);
}

void Window::giveUpHostLock(int target, LockState state) {
  if (state == LockState::Exclusive) {
    hostLocks_->unlockExclusive(target);
  } else {
    hostLocks_->unlockShared(target);
  }
}

void Window::unlock(int target) {
  if (target == MPI_PROC_NULL) return;
  if (target < 0 || target >= size()) {
    fail(MPI_ERR_RANK,
         "target rank " + std::to_string(target) + " is not in the window (size " + std::to_string(size()) + ")");
  }
  const auto t = static_cast<std::size_t>(target);
  LockState state;
  bool released = false;
  {
    std::lock_guard guard(mutex_);
    state = locks_[t];
    if (state == LockState::None) fail(MPI_ERR_RMA_SYNC, "rank " + std::to_string(target) + " is not locked");
    const bool held = state == LockState::Shared || state == LockState::Exclusive;
    // An unlock message flushes; host locks flush first (releaseHostLocks).
    if (!hostLocks_ && held) dirty_[t] = 0;
    // A host lock over operations that were all copies made here (nothing sent, nothing
    // due back, no error kept): the epoch ends in this one critical section.
    released = hostLocks_ && held && dirty_[t] == 0 && pendingPerTarget_[t] == 0 && deferredError_ == MPI_SUCCESS;
    if (released) locks_[t] = LockState::None;
  }
  if (released) {
    // The lock word's release (a sequentially consistent read-modify-write) orders the
    // epoch's direct stores before it.
    return giveUpHostLock(target, state);
  }
  if (hostLocks_ && (state == LockState::Shared || state == LockState::Exclusive)) {
    releaseHostLocks({target}, state);
  } else if (state == LockState::Shared || state == LockState::Exclusive) {
    const int type = state == LockState::Exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
    send(RmaKind::Unlock, target, expectReply(target, nullptr, 0, nullptr), type, 0, zmq::message_t());
  } else {
    flushTarget(target);
  }
  waitReplies({target});
  {
    std::lock_guard guard(mutex_);
    locks_[t] = LockState::None;
  }
  raiseDeferredError();
}

void Window::lockAll(int assert) {
  std::vector<int> everyone;
  {
    std::lock_guard guard(mutex_);
    const bool locked = std::any_of(locks_.begin(), locks_.end(), [](LockState s) { return s != LockState::None; });
    if (lockAll_ || locked) fail(MPI_ERR_RMA_SYNC, "MPI_Win_lock_all while the window is already locked");
    if (isNoCheck(assert)) {
      lockAll_ = true;
      noteOpenToAll();
      lockAllNoCheck_ = true;
      return;
    }
  }
  if (hostLocks_) {
    int held = 0;
    try {
      for (; held < size(); ++held) hostLocks_->lockShared(held);
    } catch (...) {
      for (int r = 0; r < held; ++r) hostLocks_->unlockShared(r);
      throw;
    }
    std::lock_guard guard(mutex_);
    lockAll_ = true;
    noteOpenToAll();
    lockAllNoCheck_ = false;
    return;
  }
  for (int r = 0; r < size(); ++r) send(RmaKind::LockRequest, r, 0, MPI_LOCK_SHARED, 0, zmq::message_t());
  std::unique_lock guard(mutex_);
  waitFor(guard, [&] { return std::all_of(grants_.begin(), grants_.end(), [](int g) { return g > 0; }); });
  for (int& g : grants_) --g;
  lockAll_ = true;
  noteOpenToAll();
  lockAllNoCheck_ = false;
}

void Window::unlockAll() {
  bool noCheck;
  {
    std::lock_guard guard(mutex_);
    if (!lockAll_) fail(MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all without MPI_Win_lock_all");
    noCheck = lockAllNoCheck_;
    if (!noCheck && !hostLocks_) std::fill(dirty_.begin(), dirty_.end(), 0);
  }
  std::vector<int> everyone(static_cast<std::size_t>(size()));
  for (int r = 0; r < size(); ++r) everyone[static_cast<std::size_t>(r)] = r;
  if (hostLocks_ && !noCheck) {
    releaseHostLocks(everyone, LockState::Shared);
    {
      std::lock_guard guard(mutex_);
      lockAll_ = false;
      noteOpenToAll();
    }
    return raiseDeferredError();
  }
  for (int r = 0; r < size(); ++r) {
    if (noCheck) {
      flushTarget(r);
    } else {
      send(RmaKind::Unlock, r, expectReply(r, nullptr, 0, nullptr), MPI_LOCK_SHARED, 0, zmq::message_t());
    }
  }
  waitReplies(everyone);
  {
    std::lock_guard guard(mutex_);
    lockAll_ = false;
    noteOpenToAll();
    lockAllNoCheck_ = false;
  }
  raiseDeferredError();
}

void Window::requirePassiveEpoch(int target, const char* what) {
  std::lock_guard guard(mutex_);
  requirePassiveEpochLocked(target, what);
}

void Window::requirePassiveEpochLocked(int target, const char* what) {
  if (target < 0 || target >= size()) {
    fail(MPI_ERR_RANK, std::string(what) + ": target rank " + std::to_string(target) + " is not in the window (size " +
                           std::to_string(size()) + ")");
  }
  if (!lockAll_ && locks_[static_cast<std::size_t>(target)] == LockState::None) {
    fail(MPI_ERR_RMA_SYNC,
         std::string(what) + " of rank " + std::to_string(target) + " outside a passive-target epoch on it");
  }
}

void Window::flush(int target) {
  if (target == MPI_PROC_NULL) return;
  {
    std::lock_guard guard(mutex_);
    requirePassiveEpochLocked(target, "MPI_Win_flush");
    // Nothing sent there since the last flush, no reply due, no error kept: done (the
    // common case on one host, where the operations were copies made here).
    const auto t = static_cast<std::size_t>(target);
    if (dirty_[t] == 0 && pendingPerTarget_[t] == 0 && deferredError_ == MPI_SUCCESS) return;
  }
  flushTarget(target);
  waitReplies({target});
  raiseDeferredError();
}

void Window::completeLocally(int target) {
  if (target == MPI_PROC_NULL) return;
  waitReplies({target});
  raiseDeferredError();
}

void Window::flushLocal(int target) {
  if (target == MPI_PROC_NULL) return;
  requirePassiveEpoch(target, "MPI_Win_flush_local");
  waitReplies({target});
  raiseDeferredError();
}

std::vector<int> Window::lockedTargets(const char* what) {
  std::vector<int> targets;
  std::lock_guard guard(mutex_);
  for (int r = 0; r < size(); ++r) {
    if (lockAll_ || locks_[static_cast<std::size_t>(r)] != LockState::None) targets.push_back(r);
  }
  if (targets.empty()) fail(MPI_ERR_RMA_SYNC, std::string(what) + " outside a passive-target epoch");
  return targets;
}

void Window::flushAll() {
  const std::vector<int> targets = lockedTargets("MPI_Win_flush_all");
  for (int r : targets) flushTarget(r);
  waitReplies(targets);
  raiseDeferredError();
}

void Window::flushLocalAll() {
  waitReplies(lockedTargets("MPI_Win_flush_local_all"));
  raiseDeferredError();
}

void Window::sync() {
  // Operations from other ranks are applied under targetMutex_ by whichever thread received
  // them (the progress thread, or a waiting thread that read the connection itself): taking
  // it orders what they wrote before this rank's next loads, also for TSan, which cannot
  // see the order that runs through the origin's flush and a barrier in other processes.
  { std::lock_guard serial(targetMutex_); }
  // Loads and stores to a shared window by other processes. The builtin rather than
  // std::atomic_thread_fence, which TSan builds reject.
  __sync_synchronize();
}

}  // namespace zmpi::mpi::rma
