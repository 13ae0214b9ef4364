#pragma once
// Futex calls on a 32-bit word that may lie in memory several processes share (a
// shared-memory segment): never FUTEX_PRIVATE_FLAG, so a waker in another process finds
// the sleeper.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace zmpi::transport {

static_assert(std::atomic<uint32_t>::is_always_lock_free, "futex words must be plain 32-bit words");

// Sleeps while `word` holds `expected`, for at most `timeout`. Returns on a wake-up, at
// once if the word differs, on a signal or at the timeout: callers re-check their condition.
void futexWait(std::atomic<uint32_t>& word, uint32_t expected, std::chrono::nanoseconds timeout);
// Wakes every thread sleeping on `word`, in any process.
void futexWakeAll(std::atomic<uint32_t>& word);

}  // namespace zmpi::transport
