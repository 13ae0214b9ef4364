#pragma once
// The order in which one sender's numbered messages reach the engine, when they arrive on
// two channels read by different threads (zmq on the progress thread, the bulk connection
// on its I/O thread; see ZmqFabric). A message numbered n is handed over only after 1..n-1
// have been (each hand-over has returned: MPI matched it); one that comes early waits here
// and is handed over by the thread that delivers its predecessor. Nothing is held locked
// while a message is handed over, so a hand-over may block (connect, send) without
// stalling the other channel's thread, which only queues what it brings meanwhile.
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "transport/wire.h"

namespace zmpi::mpi {

class OrderGate {
 public:
  enum class Outcome { Delivered, Held, Repeated };

  // Hands `message` (number `number`, from 1) and whatever it unblocks to `deliver`, or
  // keeps it until its predecessors are handed over. A number seen before is dropped
  // (Repeated). `deliver` may throw: the gate stays usable, later numbers are handed over
  // by the next arrival.
  template <typename Deliver>
  Outcome pass(uint64_t number, transport::WireMessage&& message, Deliver&& deliver) {
    std::unique_lock lock(mutex_);
    if (number < expected_ || held_.count(number) != 0) return Outcome::Repeated;
    if (number != expected_ || delivering_) {
      message.own();  // a payload lent by a ring or buffer must outlive this call
      held_.emplace(number, std::move(message));
      if (number != expected_) ++early_;
      if (delivering_ || held_.begin()->first != expected_) return Outcome::Held;
      message = std::move(held_.extract(held_.begin()).mapped());
    }
    ++expected_;
    delivering_ = true;
    try {
      for (;;) {
        lock.unlock();
        deliver(std::move(message));
        lock.lock();
        if (held_.empty() || held_.begin()->first != expected_) break;
        message = std::move(held_.extract(held_.begin()).mapped());
        ++expected_;
      }
    } catch (...) {
      if (!lock.owns_lock()) lock.lock();
      delivering_ = false;
      throw;
    }
    delivering_ = false;
    return Outcome::Delivered;
  }

  // Messages that arrived before a predecessor and waited for it (tests, debug logs).
  uint64_t earlyCount() {
    std::lock_guard lock(mutex_);
    return early_;
  }
  std::size_t heldCount() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }

 private:
  std::mutex mutex_;
  uint64_t expected_ = 1;
  bool delivering_ = false;  // a thread is handing messages over: it takes what comes meanwhile
  std::map<uint64_t, transport::WireMessage> held_;
  uint64_t early_ = 0;
};

}  // namespace zmpi::mpi
