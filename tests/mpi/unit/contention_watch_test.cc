// A bound rank gives up its core when another process keeps taking it (contention_watch.h):
// the watch's rule with made-up timings, and the engine's spin beside a real busy process
// on the same CPU.
#include "mpi/core/contention_watch.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>

#include "mpi/core/cpu_binding.h"
#include "mpi/core/engine.h"
#include "mpi/core/mock_fabric.h"

using namespace std::chrono_literals;
using zmpi::mpi::ContentionWatch;

namespace {
const ContentionWatch::Clock::time_point kStart{};
}  // namespace

TEST_CASE("contention watch: short yields are not even suspicious", "[contention]") {
  ContentionWatch watch;
  CHECK_FALSE(watch.suspicious(kStart, kStart + 20us));
  CHECK_FALSE(watch.suspicious(kStart, kStart + 300us));
  CHECK(watch.suspicious(kStart, kStart + 301us));
}

TEST_CASE("contention watch: three long yields not ours within the window decide, once", "[contention]") {
  ContentionWatch watch;
  CHECK_FALSE(watch.probed(kStart + 3ms, 2ms, 10us));
  CHECK_FALSE(watch.probed(kStart + 8ms, 3ms, 0us));
  CHECK(watch.probed(kStart + 12ms, 1ms, 100us));
  CHECK(watch.decided());
  CHECK_FALSE(watch.probed(kStart + 15ms, 2ms, 0us));
}

TEST_CASE("contention watch: our own threads' turns and short yields never count", "[contention]") {
  ContentionWatch watch;
  for (int i = 1; i <= 100; ++i) {
    const auto at = kStart + std::chrono::milliseconds(i);
    CHECK_FALSE(watch.probed(at, 2ms, 1500us));  // mostly our progress thread
    CHECK_FALSE(watch.probed(at, 200us, 0us));   // too short to mean a time slice
  }
  CHECK_FALSE(watch.decided());
}

TEST_CASE("contention watch: rare interruptions far apart never add up", "[contention]") {
  ContentionWatch watch;
  for (int i = 1; i <= 20; ++i) CHECK_FALSE(watch.probed(kStart + std::chrono::milliseconds(i * 60), 1ms, 0us));
  CHECK_FALSE(watch.decided());
  // Two strikes, a pause past the window, then two: the count started again.
  ContentionWatch other;
  CHECK_FALSE(other.probed(kStart + 1ms, 1ms, 0us));
  CHECK_FALSE(other.probed(kStart + 2ms, 1ms, 0us));
  CHECK_FALSE(other.probed(kStart + 100ms, 1ms, 0us));
  CHECK_FALSE(other.probed(kStart + 101ms, 1ms, 0us));
  CHECK(other.probed(kStart + 102ms, 1ms, 0us));
}

TEST_CASE("a spinning engine bound beside a busy process on its CPU unbinds", "[contention]") {
  using namespace zmpi::mpi;
  const auto cores = allowedCores();
  REQUIRE_FALSE(cores.empty());
  const int cpu = cores.back().cpus.front();
  REQUIRE(bindToCpus({cpu}));
  // The busy process: another process, so that its CPU time is not ours. It ends when the
  // test kills it, or by itself after 60 s should the test die first.
  const pid_t busy = fork();
  REQUIRE(busy >= 0);
  if (busy == 0) {
    alarm(60);
    for (;;) __asm__ volatile("" ::: "memory");  // a loop the compiler keeps
  }
  MockFabric fabric(std::make_shared<MockNetwork>(1), 0);
  Engine engine(0, 1, 0, fabric);
  engine.setSpinPolicy(false, true);
  engine.watchCoreContention();
  REQUIRE(engine.watchingCoreContention());
  // Each spin lasts ZMPI_SPIN_US (50 us) plus whatever the busy process takes; bounded.
  const auto giveUp = std::chrono::steady_clock::now() + 30s;
  while (boundToCpus() && std::chrono::steady_clock::now() < giveUp) {
    engine.spinUntil([] { return !boundToCpus(); });
  }
  const bool unbound = !boundToCpus();
  kill(busy, SIGKILL);
  waitpid(busy, nullptr, 0);
  unbindFromCpus();  // if the engine did not: leave the test process as it was
  CHECK(unbound);
  CHECK_FALSE(engine.watchingCoreContention());
  CHECK(engine.pollsPerYield() == 64);  // kPollsPerYieldUnbound
}
