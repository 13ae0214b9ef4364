#include "mpi/rma/host_locks.h"

#include <sched.h>

#include "mpi/core/engine.h"
#include "transport/futex.h"

namespace zmpi::mpi::rma {
namespace {

constexpr uint32_t kExclusive = 1u << 31;

// lockAccumulateQuietly's yields before it sleeps: an accumulate by another process is a
// few microseconds, a yield about one.
constexpr int kQuietYields = 64;

// Whatever a waiter needs changes through a read-modify-write (seq_cst, a full fence on
// x86) before the ring, which then loads the sleeper count: the Dekker pair of waitShm.
constexpr bool kSleeperFences = false;

// Counts a waiting exclusive request for as long as it waits, however the wait ends.
class WaitingWriter {
 public:
  explicit WaitingWriter(std::atomic<uint32_t>& count) : count_(count) { count_.fetch_add(1); }
  ~WaitingWriter() { count_.fetch_sub(1); }
  WaitingWriter(const WaitingWriter&) = delete;
  WaitingWriter& operator=(const WaitingWriter&) = delete;

 private:
  std::atomic<uint32_t>& count_;
};

// Waits until `attempt()` succeeds once. waitShm may look at its condition again after it
// held (a last check before it returns): an acquisition must count once, so the condition
// remembers it.
template <typename Attempt>
void acquire(Engine& engine, coll::ShmDoorbell& bell, Attempt attempt) {
  if (attempt()) return;
  bool held = false;
  auto ready = [&] {
    if (!held) held = attempt();
    return held;
  };
  coll::waitShm(engine, bell, ready, kSleeperFences);
}

}  // namespace

HostLocks::HostLocks(void* lines, Engine& engine) : lines_(static_cast<HostLockLine*>(lines)), engine_(engine) {}

bool HostLocks::tryShared(HostLockLine& line) {
  if (line.writersWaiting.load() != 0) return false;
  uint32_t state = line.lock.load();
  while ((state & kExclusive) == 0) {
    if (line.lock.compare_exchange_weak(state, state + 1)) return true;
  }
  return false;
}

bool HostLocks::tryExclusive(HostLockLine& line) {
  uint32_t unlocked = 0;
  return line.lock.compare_exchange_strong(unlocked, kExclusive);
}

void HostLocks::wake(HostLockLine& line) { coll::ringShm(line.bell, kSleeperFences); }

void HostLocks::lockShared(int target) {
  HostLockLine& l = line(target);
  acquire(engine_, l.bell, [&] { return tryShared(l); });
}

void HostLocks::lockExclusive(int target) {
  HostLockLine& l = line(target);
  if (tryExclusive(l)) return;
  WaitingWriter waiting(l.writersWaiting);
  acquire(engine_, l.bell, [&] { return tryExclusive(l); });
}

void HostLocks::unlockShared(int target) {
  HostLockLine& l = line(target);
  l.lock.fetch_sub(1);
  wake(l);
}

void HostLocks::unlockExclusive(int target) {
  HostLockLine& l = line(target);
  l.lock.fetch_and(~kExclusive);
  wake(l);
}

void HostLocks::lockAccumulate(int target) {
  HostLockLine& l = line(target);
  acquire(engine_, l.bell, [&] {
    uint32_t free = 0;
    return l.accumulate.compare_exchange_strong(free, 1);
  });
}

void HostLocks::lockAccumulateQuietly(int target) {
  HostLockLine& l = line(target);
  auto attempt = [&] {
    uint32_t free = 0;
    return l.accumulate.compare_exchange_strong(free, 1);
  };
  for (int i = 0; i < kQuietYields; ++i) {
    if (attempt()) return;
    sched_yield();
  }
  // The sleeper count goes up before the last attempt, and unlockAccumulate frees the mutex
  // before it reads the count (both read-modify-writes, or fenced): one of the two sees the
  // other, so a release never passes a sleeper by.
  for (;;) {
    l.bell.sleepers.fetch_add(1);
    const uint32_t generation = l.bell.generation.load(std::memory_order_acquire);
    const bool held = attempt();
    if (!held) transport::futexWait(l.bell.generation, generation, coll::kShmSleepSlice);
    l.bell.sleepers.fetch_sub(1);
    if (held || attempt()) return;
  }
}

void HostLocks::unlockAccumulate(int target) {
  HostLockLine& l = line(target);
  l.accumulate.exchange(0);
  wake(l);
}

}  // namespace zmpi::mpi::rma
