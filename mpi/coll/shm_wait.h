#pragma once
// Waiting on a shared-memory collective's flags (shm_area.h). A waiter first spins with the
// engine's policy (Engine::spinUntil: spinTime(), a yield every pollsPerYield() polls, every
// poll when the host is oversubscribed), draining this rank's point-to-point rings meanwhile
// as any MPI wait does, so the progress thread's ring registration stays honest. Then it
// sleeps on a futex in the segment (a cross-process one: not FUTEX_PRIVATE), with a bounded
// timeout after which it looks whether the job is ending (Engine::checkAborted): an
// aborting job never leaves a rank asleep here.
//
// A publisher stores its flag, then rings the doorbell: a system call only when a
// sleeper count says someone sleeps. Dekker's pattern on (flag, sleepers): either the
// publisher sees the sleeper, or the sleeper's last check sees the flag. That needs a
// full fence on both sides -- on the publisher's, one that waits for its cache line to
// come back from the readers (a pipelined 8-byte bcast spent most of its time there). So
// where the kernel has membarrier(2), the fence is asymmetric, as in userspace RCU: the
// publisher's side is a compiler barrier, and a sleeper, before its last check, makes
// every CPU running one of the job's processes execute a full fence
// (MEMBARRIER_CMD_GLOBAL_EXPEDITED; each process registers once). Sleeping is the slow
// path anyway: it comes after the spin.
#include <atomic>
#include <chrono>
#include <cstdint>

#include "mpi/core/engine.h"
#include "transport/function_ref.h"

namespace zmpi::mpi::coll {

// Lives in the shared segment (one per rank: ShmArea's flag lines); zero-filled is a valid state.
struct ShmDoorbell {
  std::atomic<uint32_t> generation;  // the futex word: bumped by every ring that wakes
  std::atomic<uint32_t> sleepers;    // waiters in (or about to enter) FUTEX_WAIT
};
static_assert(std::atomic<uint32_t>::is_always_lock_free, "futex words must be plain 32-bit words");

// How long a sleeper sleeps before it checks for an aborting job (and sleeps again).
inline constexpr std::chrono::milliseconds kShmSleepSlice{50};

// Whether this process is registered for sleepers' fences. Registering waits for an RCU
// grace period in the kernel (about 20 ms here), so MPI_Init starts it on a thread of its
// own (prepareSleeperFences), and a set-up before it has finished does without: all
// processes that publish to or sleep on a doorbell must agree on `sleeperFences` below,
// true only if every one of them was registered at set-up.
void prepareSleeperFences();
bool sleeperFencesReady();

// Stores `value` into `flag` (release) and wakes the sleepers if there are any.
void publishShm(ShmDoorbell& bell, std::atomic<uint64_t>& flag, uint64_t value, bool sleeperFences);
// Wakes the sleepers, if there are any, after a change the caller has made to what they
// wait for (publishShm's second half).
void ringShm(ShmDoorbell& bell, bool sleeperFences);

// Returns once `ready()` holds; throws MpiError if the job aborts meanwhile. `ready` must
// read the flags it depends on with acquire loads.
void waitShm(Engine& engine, ShmDoorbell& bell, transport::FunctionRef<bool()> ready, bool sleeperFences);

// One round of waitShm's sleep, without the engine: counts itself a sleeper, sleeps on the
// doorbell unless `ready()` holds (at most kShmSleepSlice), and returns `ready()` after.
// For a thread that must not deliver messages while it waits.
bool sleepOnShm(ShmDoorbell& bell, transport::FunctionRef<bool()> ready, bool sleeperFences);

}  // namespace zmpi::mpi::coll
