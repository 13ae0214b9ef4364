#pragma once
// Passive-target locks of a window whose ranks all live on one host, kept in the window's
// shared segment instead of at each target's lock manager (lock_manager.h). MPI_Win_lock,
// unlock and lock_all then cost a few atomic operations on a cache line the ranks share,
// where the messages cost a round trip through the target's progress thread each (a
// lock / get / unlock of 4 bytes took ~370 us on 2 ranks; OpenCoarrays does one per
// coarray element it reads). Open MPI's osc/sm keeps its locks in shared memory the same way.
//
// One line per target rank: a lock word (bit 31: held exclusively; below: shared holders),
// the count of exclusive requests waiting (shared requests queue behind them, so readers
// cannot starve a writer, as with the lock manager), an accumulate mutex (accumulates on
// the target's memory are applied by their origins under it, so they are atomic with
// respect to each other), and a doorbell waiters sleep on after their spin (coll/shm_wait.h).
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "mpi/coll/shm_wait.h"

namespace zmpi::mpi {
class Engine;
}

namespace zmpi::mpi::rma {

// Zero-filled is the unlocked state (a fresh segment).
struct alignas(64) HostLockLine {
  std::atomic<uint32_t> lock;
  std::atomic<uint32_t> writersWaiting;
  std::atomic<uint32_t> accumulate;  // 0 free, 1 held
  coll::ShmDoorbell bell;
};

class HostLocks {
 public:
  // `lines`: one line per rank in shared memory (bytesFor), zero-filled by their creator.
  HostLocks(void* lines, Engine& engine);

  static std::size_t bytesFor(int ranks) { return static_cast<std::size_t>(ranks) * sizeof(HostLockLine); }

  // Block until granted; throw MpiError if the job aborts meanwhile.
  void lockShared(int target);
  void lockExclusive(int target);
  void unlockShared(int target);
  void unlockExclusive(int target);

  // Brackets every accumulate on `target`'s memory.
  void lockAccumulate(int target);
  void unlockAccumulate(int target);
  // lockAccumulate for a thread that must not deliver messages while it waits (the one
  // applying a message at its target, under the window's target mutex): spin, yield, then
  // sleep on the doorbell, without the engine. The holders are origins in the middle of
  // one accumulate.
  void lockAccumulateQuietly(int target);

  // Holds a target's accumulate mutex for the life of the scope.
  class AccumulateGuard {
   public:
    enum class Wait { WithEngine, Quietly };
    AccumulateGuard(HostLocks& locks, int target, Wait wait = Wait::WithEngine) : locks_(locks), target_(target) {
      if (wait == Wait::Quietly) {
        locks_.lockAccumulateQuietly(target);
      } else {
        locks_.lockAccumulate(target);
      }
    }
    ~AccumulateGuard() { locks_.unlockAccumulate(target_); }
    AccumulateGuard(const AccumulateGuard&) = delete;
    AccumulateGuard& operator=(const AccumulateGuard&) = delete;

   private:
    HostLocks& locks_;
    int target_;
  };

 private:
  HostLockLine& line(int target) { return lines_[target]; }
  static bool tryShared(HostLockLine& line);
  static bool tryExclusive(HostLockLine& line);
  void wake(HostLockLine& line);

  HostLockLine* lines_;
  Engine& engine_;
};

}  // namespace zmpi::mpi::rma
