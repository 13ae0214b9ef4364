#include "mpi/coll/shm_wait.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

#include "transport/futex.h"

namespace zmpi::mpi::coll {
namespace {

long membarrier(int command) { return syscall(SYS_membarrier, command, 0, 0); }

bool registerNow() {
  const long commands = membarrier(MEMBARRIER_CMD_QUERY);
  return commands > 0 && (commands & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
         membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED) == 0;
}

// 0 while nobody has registered, 1 while a thread registers, then 2 (registered) or 3 (not).
std::atomic<int> registration{0};

void registerOnce() {
  int expected = 0;
  if (!registration.compare_exchange_strong(expected, 1)) return;
  registration.store(registerNow() ? 2 : 3);
}

}  // namespace

void prepareSleeperFences() {
  if (registration.load() != 0) return;
  // Detached: a process that ends first needs no result, and must not wait at exit. Two
  // callers may both start one: the second thread finds the registration taken.
  std::thread(registerOnce).detach();
}

bool sleeperFencesReady() {
  prepareSleeperFences();  // in case MPI_Init did not (mock worlds)
  return registration.load() == 2;
}

void publishShm(ShmDoorbell& bell, std::atomic<uint64_t>& flag, uint64_t value, bool sleeperFences) {
  flag.store(value, std::memory_order_release);
  ringShm(bell, sleeperFences);
}

void ringShm(ShmDoorbell& bell, bool sleeperFences) {
  // Orders the caller's store before the sleeper count's load (see waitShm's fence). A full fence
  // and a plain load leave the sleeper count's line shared; ThreadSanitizer does not
  // support fences (GCC refuses them), and there a read-modify-write of the count does
  // the same (as ShmOutbox::wantsDoorbell).
#if defined(__SANITIZE_THREAD__)
  (void)sleeperFences;
  if (bell.sleepers.fetch_add(0, std::memory_order_seq_cst) == 0) return;
#else
  if (sleeperFences) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  if (bell.sleepers.load(std::memory_order_relaxed) == 0) return;
#endif
  bell.generation.fetch_add(1, std::memory_order_release);
  transport::futexWakeAll(bell.generation);
}

void waitShm(Engine& engine, ShmDoorbell& bell, transport::FunctionRef<bool()> ready, bool sleeperFences) {
  // A peer's flag is usually a few hundred nanoseconds away: look for it as often as the
  // engine polls between two yields before entering its spin, whose set-up (a clock read,
  // the ring poller's registration) costs about as much again.
  for (unsigned i = 0; i < engine.pollsPerYield(); ++i) {
    if (ready()) return;
    asm volatile("" ::: "memory");  // no pause: the engine's polls do not pause either
  }
  if (engine.spinUntil(ready)) return;
  // Blocked from here on: the watchdog (ZMPI_WATCHDOG_SECONDS) may name the call.
  Watchdog::Watch watch(engine.watchdog());
  watch.arm([] { return describeWait(); });
  for (;;) {
    engine.checkAborted();
    if (sleepOnShm(bell, ready, sleeperFences)) return;
  }
}

bool sleepOnShm(ShmDoorbell& bell, transport::FunctionRef<bool()> ready, bool sleeperFences) {
  // The generation is read before the last check: a ring after that check bumps it, and
  // FUTEX_WAIT then returns at once. The fence pairs with publishShm's (under
  // ThreadSanitizer both sides' read-modify-writes of the count order them).
#if defined(__SANITIZE_THREAD__)
  bell.sleepers.fetch_add(1, std::memory_order_seq_cst);
#else
  bell.sleepers.fetch_add(1, std::memory_order_relaxed);
  if (!sleeperFences || membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
#endif
  const uint32_t generation = bell.generation.load(std::memory_order_acquire);
  if (!ready()) transport::futexWait(bell.generation, generation, kShmSleepSlice);
  bell.sleepers.fetch_sub(1, std::memory_order_relaxed);
  return ready();
}

}  // namespace zmpi::mpi::coll
