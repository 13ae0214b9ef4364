#pragma once
// The passive-target lock of one window at one target (MPI_Win_lock): any number of
// shared holders or one exclusive holder, and a FIFO queue of waiters. A shared request
// queues behind a waiting exclusive one, so a stream of readers cannot starve a writer.
// It is driven only by the target's lock and unlock messages, which the window serializes
// (target_ops.cc), so it holds no mutex; the caller sends LockGranted to the origins it
// returns.
#include <deque>
#include <vector>

namespace zmpi::mpi::rma {

class LockManager {
 public:
  enum class Type { Shared, Exclusive };

  // `origin` asks for the lock; returns the origins granted now (empty, or {origin}).
  std::vector<int> request(int origin, Type type);
  // `origin` gives its lock up; returns the waiters granted as a result, in queue order.
  // Throws MpiError(MPI_ERR_RMA_SYNC) if `origin` does not hold the lock that way.
  std::vector<int> release(int origin, Type type);

  int sharedHolders() const { return shared_; }
  bool exclusivelyHeld() const { return exclusive_ >= 0; }
  std::size_t waiting() const { return queue_.size(); }

 private:
  struct Waiter {
    int origin;
    Type type;
  };
  bool grantable(Type type) const;
  void grant(int origin, Type type);
  std::vector<int> grantWaiters();

  int shared_ = 0;
  int exclusive_ = -1;              // the exclusive holder's rank, or -1
  std::vector<int> sharedOrigins_;  // for release checks; a rank may hold several shared locks
  std::deque<Waiter> queue_;
};

}  // namespace zmpi::mpi::rma
