#pragma once
// Small synchronisation utilities for tests and runtime code: a latch with a timed wait
// (std::latch has none) so that a test that would hang fails with a clear message.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace zmpi::transport {

class Latch {
 public:
  explicit Latch(int count) : count_(count) {}
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;

  void countDown(int n = 1) {
    std::lock_guard lock(mutex_);
    count_ -= n;
    if (count_ <= 0) cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return count_ <= 0; });
  }
  // Returns false if the count did not reach zero within `timeout`.
  template <typename Rep, typename Period>
  bool waitFor(std::chrono::duration<Rep, Period> timeout) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return count_ <= 0; });
  }
  void arriveAndWait() {
    countDown();
    wait();
  }
  bool tryWait() {
    std::lock_guard lock(mutex_);
    return count_ <= 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int count_;
};

}  // namespace zmpi::transport
