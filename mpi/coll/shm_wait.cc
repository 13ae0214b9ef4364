#include "mpi/coll/shm_wait.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>

namespace zmpi::mpi::coll {
namespace {

// Shared (not FUTEX_PRIVATE_FLAG): the word is in a mapping other processes share.
long futex(std::atomic<uint32_t>& word, int operation, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), operation, value, timeout, nullptr, 0);
}

}  // namespace

void publishShm(ShmDoorbell& bell, std::atomic<uint64_t>& flag, uint64_t value) {
  flag.store(value, std::memory_order_release);
  // Orders the store before the sleeper count's load (see waitShm's fence).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (bell.sleepers.load(std::memory_order_relaxed) == 0) return;
  bell.generation.fetch_add(1, std::memory_order_release);
  futex(bell.generation, FUTEX_WAKE, INT_MAX, nullptr);
}

void waitShm(Engine& engine, ShmDoorbell& bell, transport::FunctionRef<bool()> ready) {
  if (engine.spinUntil(ready)) return;
  constexpr timespec slice{0, std::chrono::nanoseconds(kShmSleepSlice).count()};
  for (;;) {
    engine.checkAborted();
    bell.sleepers.fetch_add(1, std::memory_order_relaxed);
    // The generation is read before the last check: a ring after that check bumps it, and
    // FUTEX_WAIT then returns at once. The fence pairs with publishShm's.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const uint32_t generation = bell.generation.load(std::memory_order_acquire);
    if (!ready()) futex(bell.generation, FUTEX_WAIT, generation, &slice);
    bell.sleepers.fetch_sub(1, std::memory_order_relaxed);
    if (ready()) return;
  }
}

}  // namespace zmpi::mpi::coll
