// SpinGate (when the bulk I/O thread may spin) fed with made-up yield timings, and the
// scheduler slice request (sched_slice.h) on the running kernel.
#include "transport/spin_gate.h"

#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

#include "transport/sched_slice.h"

using namespace std::chrono_literals;
using std::chrono::microseconds;
using zmpi::transport::SpinGate;

namespace {
const SpinGate::Clock::time_point kStart = SpinGate::Clock::time_point{} + 1h;
}

TEST_CASE("SpinGate: yields an idle CPU gives back at once never stop the spin", "[spin_gate]") {
  SpinGate gate;
  auto t = kStart;
  for (int i = 0; i < 1000; ++i, t += microseconds(2)) CHECK_FALSE(gate.yielded(t, t + microseconds(1)));
  CHECK_FALSE(gate.yielded(t, t + microseconds(200)));  // the default threshold itself is not contested
  CHECK(gate.allows(t + microseconds(200)));
  t += 1ms;
  CHECK(gate.yielded(t, t + microseconds(201)));
  CHECK_FALSE(gate.allows(t + microseconds(201)));
}

TEST_CASE("SpinGate: a long yield pauses spinning for the first pause, then it may spin again", "[spin_gate]") {
  SpinGate gate({.contested = microseconds(50), .firstPause = 20ms, .longestPause = 1000ms});
  CHECK(gate.allows(kStart));
  const auto back = kStart + microseconds(1500);  // a busy process ran its slice
  CHECK(gate.yielded(kStart, back));
  CHECK_FALSE(gate.allows(back));
  CHECK_FALSE(gate.allows(back + 19ms));
  CHECK(gate.allows(back + 20ms));
}

TEST_CASE("SpinGate: lasting contention doubles the pause up to the longest, a calm spin resets it", "[spin_gate]") {
  SpinGate gate({.contested = microseconds(50), .firstPause = 20ms, .longestPause = 100ms});
  auto t = kStart;
  for (const auto expected : {20ms, 40ms, 80ms, 100ms, 100ms}) {
    CHECK(gate.pause() == expected);
    REQUIRE(gate.yielded(t, t + 2ms));
    t += 2ms;
    CHECK_FALSE(gate.allows(t + expected - microseconds(1)));
    CHECK(gate.allows(t + expected));
    t += expected;
  }
  gate.spinEnded();  // a spin that found data at every look and never yielded: no evidence
  CHECK(gate.pause() == 100ms);
  for (int i = 0; i < 7; ++i, t += microseconds(2)) CHECK_FALSE(gate.yielded(t, t + microseconds(1)));
  gate.spinEnded();  // too few calm yields
  CHECK(gate.pause() == 100ms);
  for (int i = 0; i < 8; ++i, t += microseconds(2)) CHECK_FALSE(gate.yielded(t, t + microseconds(1)));
  gate.spinEnded();  // the load is gone: the spin ran its course, yielding without contest
  CHECK(gate.pause() == 20ms);
  REQUIRE(gate.yielded(t, t + 2ms));
  CHECK(gate.allows(t + 2ms + 20ms));
}

TEST_CASE("SpinGate: calm yields before a contested one in the same spin do not reset the pause", "[spin_gate]") {
  SpinGate gate({.contested = microseconds(50), .firstPause = 20ms, .longestPause = 1000ms});
  auto t = kStart;
  REQUIRE(gate.yielded(t, t + 2ms));
  t += 30ms;
  for (int i = 0; i < 20; ++i, t += microseconds(2)) CHECK_FALSE(gate.yielded(t, t + microseconds(1)));
  REQUIRE(gate.yielded(t, t + 2ms));  // contested again before the spin ended
  t += 100ms;
  gate.spinEnded();  // the next spin has no calm yields of its own yet
  CHECK(gate.pause() == 80ms);
}

TEST_CASE("SpinGate: a zero threshold never pauses", "[spin_gate]") {
  SpinGate gate({.contested = microseconds(0)});
  CHECK_FALSE(gate.yielded(kStart, kStart + 10ms));
  CHECK(gate.allows(kStart + 10ms));
}

TEST_CASE("requestSchedSlice keeps the thread's nice value and, where the kernel has slices, sets it", "[spin_gate]") {
  CHECK_FALSE(zmpi::transport::requestSchedSlice(microseconds(0)));
  // On a thread of its own: the test runner's thread keeps its scheduling.
  bool took = false;
  int niceBefore = 0, niceAfter = 0;
  std::chrono::microseconds slice{};
  std::thread([&] {
    const auto self = static_cast<id_t>(::gettid());
    ::setpriority(PRIO_PROCESS, self, 3);  // raising nice needs no privilege
    niceBefore = ::getpriority(PRIO_PROCESS, self);
    took = zmpi::transport::requestSchedSlice(microseconds(300));
    niceAfter = ::getpriority(PRIO_PROCESS, self);
    slice = zmpi::transport::currentSchedSlice();
  }).join();
  CHECK(niceBefore == 3);
  CHECK(niceAfter == niceBefore);
  // Kernels before 6.12 (or a seccomp filter) report no slice: nothing more to check there.
  if (took && slice.count() > 0) CHECK(slice == microseconds(300));
}
