// LightMutex: mutual exclusion under more threads than cores (the contended path sleeps
// and is woken), and try_lock's answer.
#include "transport/light_mutex.h"

#include <catch2/catch.hpp>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

using zmpi::transport::LightMutex;

TEST_CASE("LightMutex excludes: no increment is lost among 8 threads", "[light_mutex]") {
  LightMutex mutex;
  // Two words updated non-atomically under the lock: a torn critical section shows as a
  // lost increment or as the words disagreeing.
  uint64_t count = 0, mirror = 0;
  bool agreed = true;
  constexpr int kThreads = 8, kRounds = 20000;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < kRounds; ++i) {
        std::lock_guard lock(mutex);
        const uint64_t seen = count;
        agreed &= mirror == seen;
        count = seen + 1;
        mirror = seen + 1;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(agreed);
  CHECK(count == uint64_t{kThreads} * kRounds);
}

TEST_CASE("LightMutex wakes a thread that sleeps on it", "[light_mutex]") {
  LightMutex mutex;
  mutex.lock();
  CHECK_FALSE(mutex.try_lock());
  std::latch waiting(1);
  bool entered = false;
  std::thread other([&] {
    waiting.count_down();
    std::lock_guard lock(mutex);  // yields, then sleeps until the unlock below
    entered = true;
  });
  waiting.wait();
  mutex.unlock();
  other.join();
  CHECK(entered);
  CHECK(mutex.try_lock());
  mutex.unlock();
}
