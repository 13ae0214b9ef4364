#pragma once
// Whether a thread that polls without sleeping (the bulk I/O thread after a frame) may spin
// right now: not while its CPU is contested. A spin that yields the CPU each round is worth
// 1.3-2.4x at 1 MiB on an idle 2-vCPU host, but beside busy processes every yield hands the
// CPU to one of them for a whole time slice (EEVDF: the yielder goes to the back), and a
// 1 MiB message took 6-8 ms instead of 0.2 (bench/CURVE.md).
//
// The sign of a contested CPU is cheap: a yield that kept us off the CPU for longer than
// `contested` means another runnable thread ran in between. Measured on the 2-vCPU host over
// a forced-tcp ping-pong: idle, 7 of ~1200 yields longer than 10 us took over 100 us (our own
// threads' turns); beside two busy loops 270 of 480 took over 200 us, most over 1 ms. Then
// spinning pauses for `firstPause`, doubled on every further contested spin (up to
// `longestPause`), and a spin that runs its course yielding without contest resets the
// pause: under lasting load a probe costs one slow message now and then, and once the load
// is gone the spin is back within the pause. Pure logic, fed with clock readings, so that
// tests can drive it with made-up timings.
#include <algorithm>
#include <chrono>

namespace zmpi::transport {

class SpinGate {
 public:
  using Clock = std::chrono::steady_clock;
  struct Settings {
    std::chrono::microseconds contested{200};  // zero: never pause
    std::chrono::milliseconds firstPause{20};
    std::chrono::milliseconds longestPause{1000};
  };

  SpinGate() = default;
  explicit SpinGate(Settings settings) : settings_(settings) {}

  // Whether a spin may run (or go on) at `now`.
  bool allows(Clock::time_point now) const { return now >= pausedUntil_; }

  // A yield of a spin lasted from `before` to `after`. Returns whether that paused spinning.
  bool yielded(Clock::time_point before, Clock::time_point after) {
    if (settings_.contested.count() <= 0 || after - before <= settings_.contested) {
      ++calmYields_;
      return false;
    }
    pausedUntil_ = after + pause();
    if (strikes_ < kMaxStrikes) ++strikes_;
    calmYields_ = 0;
    return true;
  }

  // A spin ran its course (it was not paused). If it gave the CPU away a few times and got
  // it back at once every time, the CPU is ours again: the next contested yield pauses for
  // `firstPause` only. A spin that never yielded (data at every look) proves nothing.
  void spinEnded() {
    if (calmYields_ >= kCalmYields) strikes_ = 0;
    calmYields_ = 0;
  }

  // How long the next contested yield pauses spinning.
  std::chrono::milliseconds pause() const {
    auto length = settings_.firstPause;
    for (int i = 0; i < strikes_ && length < settings_.longestPause; ++i) length *= 2;
    return std::min(length, settings_.longestPause);
  }

 private:
  static constexpr int kMaxStrikes = 30;  // far past any longestPause / firstPause ratio
  static constexpr int kCalmYields = 8;   // an idle CPU gives ~100 in a 200 us spin
  Settings settings_;
  Clock::time_point pausedUntil_{};
  int strikes_ = 0;
  int calmYields_ = 0;  // in the current spin
};

}  // namespace zmpi::transport
