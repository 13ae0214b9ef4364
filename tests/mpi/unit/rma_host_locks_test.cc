// The accumulate mutex of the host lock lines (host_locks.h): the origins' wait (through the
// engine) and the quiet wait of a thread applying a message at its target exclude each
// other, and a quiet waiter that went to sleep is woken by the release.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "locked_check.h"
#include "mock_world.h"
#include "mpi/rma/host_locks.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using rma::HostLockLine;
using rma::HostLocks;

TEST_CASE("both ways of taking the accumulate mutex exclude each other", "[rma][hostlocks]") {
  runMockWorlds(1, [](World& world) {
    std::vector<HostLockLine> lines(1);  // zero-filled: free
    HostLocks locks(lines.data(), world.engine());
    long counter = 0;  // a plain variable: the mutex alone keeps the increments whole
    constexpr int kRounds = 20000;
    std::thread quiet([&] {
      for (int i = 0; i < kRounds; ++i) {
        HostLocks::AccumulateGuard held(locks, 0, HostLocks::AccumulateGuard::Wait::Quietly);
        ++counter;
      }
    });
    for (int i = 0; i < kRounds; ++i) {
      HostLocks::AccumulateGuard held(locks, 0);
      ++counter;
    }
    quiet.join();
    LOCKED_CHECK(counter == 2 * kRounds);
  });
}

TEST_CASE("a quiet waiter sleeps until the holder releases, then holds", "[rma][hostlocks]") {
  runMockWorlds(1, [](World& world) {
    std::vector<HostLockLine> lines(1);
    HostLocks locks(lines.data(), world.engine());
    locks.lockAccumulate(0);
    std::atomic<bool> released{false};
    std::atomic<bool> acquired{false};
    std::thread waiter([&] {
      locks.lockAccumulateQuietly(0);
      acquired = true;
      LOCKED_CHECK(released.load());
      locks.unlockAccumulate(0);
    });
    // Until it sleeps on the doorbell (its yields are over): bounded, not timed.
    bool sleeping = false;
    for (int i = 0; i < 1000000 && !sleeping; ++i) {
      sleeping = lines[0].bell.sleepers.load() > 0;
      if (!sleeping) std::this_thread::yield();
    }
    LOCKED_CHECK(sleeping);
    LOCKED_CHECK(!acquired.load());
    released = true;
    locks.unlockAccumulate(0);
    waiter.join();
    LOCKED_CHECK(acquired.load());
    LOCKED_CHECK(lines[0].accumulate.load() == 0);
  });
}
