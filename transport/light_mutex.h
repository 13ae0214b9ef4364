#pragma once
// A mutex for the short critical sections of the message path (a same-host send writing
// its ring record). Uncontended, lock and unlock are one atomic instruction each, where
// std::mutex goes through pthread_mutex_lock/unlock (about 60 instructions a pair, a
// tenth of an 8-byte send). Contended, it yields a few times -- the holder is usually
// between two instructions of a ring write -- then sleeps on the word (futex, through
// std::atomic::wait), so a holder descheduled on an oversubscribed machine costs its
// waiters no CPU. Not recursive; never held across a wait for anything else.
#include <atomic>
#include <cstdint>
#include <thread>

namespace zmpi::transport {

class LightMutex {
 public:
  void lock() {
    if (!try_lock()) lockContended();
  }
  bool try_lock() {
    uint32_t expected = kFree;
    return state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock() {
    if (state_.exchange(kFree, std::memory_order_release) == kContended) state_.notify_one();
  }

 private:
  static constexpr uint32_t kFree = 0, kLocked = 1, kContended = 2;
  static constexpr int kYields = 8;

  void lockContended() {
    for (int i = 0; i < kYields; ++i) {
      std::this_thread::yield();
      if (try_lock()) return;
    }
    // Marked contended, the holder's unlock wakes a sleeper; whoever takes the lock this
    // way leaves it marked, which costs at most one needless wake.
    while (state_.exchange(kContended, std::memory_order_acquire) != kFree) {
      state_.wait(kContended, std::memory_order_relaxed);
    }
  }

  std::atomic<uint32_t> state_{kFree};
};

}  // namespace zmpi::transport
