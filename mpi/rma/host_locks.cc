#include "mpi/rma/host_locks.h"

#include <sched.h>

#include "mpi/core/engine.h"

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

// `attempt` as a wait condition that counts one success: waitShm and sleepOnShm may look
// at their condition again after it held (a last check before they return), and an
// acquisition must happen once.
template <typename Attempt>
auto heldOnce(Attempt attempt) {
  return [attempt, held = false]() mutable {
    if (!held) held = attempt();
    return held;
  };
}

// Waits until `attempt()` succeeds once.
template <typename Attempt>
void acquire(Engine& engine, coll::ShmDoorbell& bell, Attempt attempt) {
  if (attempt()) return;
  auto ready = heldOnce(attempt);
  coll::waitShm(engine, bell, ready, kSleeperFences);
}

// The same without the engine: yields, then sleeps on the doorbell.
template <typename Attempt>
void acquireQuietly(coll::ShmDoorbell& bell, Attempt attempt) {
  auto ready = heldOnce(attempt);
  for (int i = 0; i < kQuietYields && !ready(); ++i) sched_yield();
  while (!ready() && !coll::sleepOnShm(bell, ready, kSleeperFences)) {
  }
}

bool tryAccumulate(HostLockLine& line) {
  uint32_t free = 0;
  return line.accumulate.compare_exchange_strong(free, 1);
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
  acquire(engine_, l.bell, [&] { return tryAccumulate(l); });
}

void HostLocks::lockAccumulateQuietly(int target) {
  HostLockLine& l = line(target);
  acquireQuietly(l.bell, [&] { return tryAccumulate(l); });
}

void HostLocks::unlockAccumulate(int target) {
  HostLockLine& l = line(target);
  l.accumulate.exchange(0);
  wake(l);
}

}  // namespace zmpi::mpi::rma
