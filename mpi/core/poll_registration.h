#pragma once
// The user threads' registration as pollers of this rank's shared-memory rings.
//
// Senders skip the doorbell (a zmq message, system calls on both sides) while the receiver
// has a registered poller. Registering and leaving are read-modify-writes on a cache line
// every sender reads, so doing both around every wait cost a 2-rank ping-pong about 0.3 us
// per message. Instead the user side stays registered after a successful spin -- it
// lingers, betting that the program is back in MPI soon -- and the progress thread drops
// the registration once no user thread has polled for kLinger (then it looks at the rings
// itself, so a message that arrived meanwhile waits at most kLinger). A thread that gives
// up spinning to block drops it at once, unless another user thread still spins.
#include <atomic>
#include <chrono>
#include <mutex>

#include "mpi/core/fabric.h"

namespace zmpi::mpi {

class PollRegistration {
 public:
  static constexpr std::chrono::milliseconds kLinger{10};

  explicit PollRegistration(Fabric& fabric) : fabric_(fabric) {}

  // A user thread starts / stops spinning on the rings.
  void beginSpin();
  void endSpin();
  bool userSpinning() const { return spinners_.load(std::memory_order_seq_cst) > 0; }

  // Drops the registration if no user thread spins; true if it was dropped. The caller
  // must then look at the rings once more (a sender that wrote before rang no doorbell).
  bool dropIfIdle();

  bool registered() const { return registered_.load(std::memory_order_seq_cst); }
  // How many user-thread spins have ended (tests: whether a wait spun at all).
  uint64_t spinsEnded() const { return spinEnds_.load(std::memory_order_relaxed); }
  // When the progress thread should drop a lingering registration: kLinger after it first
  // saw the last spin end (it alone calls this, with the time it read).
  std::chrono::steady_clock::time_point lingerDeadline(std::chrono::steady_clock::time_point now);

 private:
  Fabric& fabric_;
  std::mutex mutex_;  // registration changes: rare
  std::atomic<int> spinners_{0};
  std::atomic<bool> registered_{false};
  // Counts spins that ended; the progress thread notes when it changes. A count, not a
  // clock: endSpin lies between a message's arrival and the user's next call.
  std::atomic<uint64_t> spinEnds_{0};
  uint64_t seenEnds_ = 0;                         // progress thread only
  std::chrono::steady_clock::time_point seenAt_;  // when it saw spinEnds_ change
};

}  // namespace zmpi::mpi
