#pragma once
// Whether the core a bound rank runs on (cpu_binding.h) is contested by another process.
//
// A rank bound to its own core keeps its caches and never finds its shared-memory peer
// descheduled beside it, but beside a busy process on that core (another job, a build, a
// second `zmpirun` of a test suite run in parallel) the binding turns against it: every
// yield of a spin hands the core to the other process for a whole time slice (EEVDF puts
// the yielder at the back), and the scheduler may not move the rank to a core that is
// free. Measured on the 2-vCPU VM beside one busy loop (2 ranks, 2026-12-03): 8 B
// ping-pong 1.5 ms a message bound, 5.6 us unbound (0.4 us idle either way); 2 MiB
// allreduce 17-46 ms bound, 0.47 ms unbound. Open MPI, which never yields when not
// oversubscribed, keeps its binding and its 0.4 us there.
//
// So a spin that yields tells the watch how long each yield kept it off the CPU. A long one
// (`longYield`) is only a suspicion -- our own progress or I/O thread may have run
// meanwhile -- and the spinning threads measure the yields that follow against the
// process's CPU time (Engine::measuredYield; two system calls a yield, so only for a while
// after a suspicion): while the rank is bound, every thread of it runs on the same core,
// so wall time that the process did not spend on a CPU went to another process. After
// `strikes` such yields the rank drops its binding for good (unbindFromCpus) and lets the
// scheduler place it, as an unbound rank. Pure logic, fed with clock readings, so that
// tests can drive it with made-up timings.
#include <chrono>

namespace zmpi::mpi {

class ContentionWatch {
 public:
  using Clock = std::chrono::steady_clock;
  struct Settings {
    std::chrono::microseconds longYield{300};
    int strikes = 3;
    // Strikes further apart start the count again: a daemon or the hypervisor takes the CPU
    // for a millisecond now and then (twice in a 2-minute idle benchmark run), a busy
    // process at every time slice (every 3-6 ms).
    std::chrono::milliseconds strikeWindow{50};
  };

  ContentionWatch() = default;
  explicit ContentionWatch(Settings settings) : settings_(settings) {}

  // A yield (and the polls after it) lasted from `before` to `after`: whether it is worth
  // a probe.
  bool suspicious(Clock::time_point before, Clock::time_point after) const {
    return after - before > settings_.longYield;
  }

  // A measured yield ended at `at` and took `wall`, during which the whole process ran on a
  // CPU for `cpu`. Returns whether that was the deciding strike (the rank should unbind
  // now); later calls return false.
  bool probed(Clock::time_point at, std::chrono::nanoseconds wall, std::chrono::nanoseconds cpu) {
    if (decided_) return false;
    if (wall <= settings_.longYield || cpu * 2 >= wall) return false;  // ours, or no wait
    if (strikes_ > 0 && at - lastStrike_ > settings_.strikeWindow) strikes_ = 0;
    lastStrike_ = at;
    decided_ = ++strikes_ >= settings_.strikes;
    return decided_;
  }

  bool decided() const { return decided_; }

 private:
  Settings settings_;
  int strikes_ = 0;
  Clock::time_point lastStrike_{};
  bool decided_ = false;
};

}  // namespace zmpi::mpi
