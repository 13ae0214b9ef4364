#pragma once
// The watchdog (ZMPI_WATCHDOG_SECONDS=N; unset or 0: off). A thread blocked in one MPI call
// for longer than N seconds gets a warning naming what it waits for (call, peer, tag,
// communicator), once after N s and again every N s while it stays blocked. Diagnostics
// only: nothing is cancelled or failed.
//
// The engine's blocking waits register what they wait for (Watch) only when they are
// about to block, so the fast paths cost nothing; with the watchdog off a Watch is a null
// pointer check. One timer thread sleeps on a condition variable until the earliest report
// is due (no polling); it logs outside its lock.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace zmpi::mpi {

class Request;

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  // ZMPI_WATCHDOG_SECONDS as a period; zero when unset or 0 (off).
  static std::chrono::milliseconds configuredPeriod();

  explicit Watchdog(std::chrono::milliseconds period);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // One blocked wait, registered from arm() to destruction. `watchdog` may be null (off).
  class Watch {
   public:
    explicit Watch(Watchdog* watchdog) : watchdog_(watchdog) {}
    ~Watch() {
      if (id_ != 0) watchdog_->remove(id_);
    }
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    // Registers the wait (once; later calls do nothing). `describe` runs only then.
    template <typename Describe>
    void arm(Describe&& describe) {
      if (watchdog_ != nullptr && id_ == 0) id_ = watchdog_->add(describe());
    }

   private:
    Watchdog* watchdog_;
    uint64_t id_ = 0;
  };

 private:
  struct Entry {
    std::string what;
    Clock::time_point since;
    Clock::time_point due;
  };
  uint64_t add(std::string what);
  void remove(uint64_t id);
  void run();

  const std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  uint64_t nextId_ = 1;
  std::map<uint64_t, Entry> entries_;
  std::thread thread_;
};

// What a blocked call waits for, in words, for the watchdog's report (the call and
// communicator come from current_call.h).
std::string describeWait(const Request& request);  // a send or receive
std::string describeProbe(int source, int tag);    // MPI_Probe / MPI_Mprobe
std::string describeWait();                        // anything else (collectives, Waitany...)

}  // namespace zmpi::mpi
