#include "mpi/core/poll_registration.h"

namespace zmpi::mpi {

void PollRegistration::beginSpin() {
  spinners_.fetch_add(1, std::memory_order_seq_cst);
  // Dekker with dropIfIdle(): we count ourselves, then read `registered_`; it clears
  // `registered_`, then reads the count. If we still see true, it sees us and keeps it.
  if (registered_.load(std::memory_order_seq_cst)) return;
  std::lock_guard lock(mutex_);
  if (registered_.load(std::memory_order_seq_cst)) return;
  fabric_.enterPolling();
  registered_.store(true, std::memory_order_seq_cst);
  // The progress thread may be blocked for its long idle period, unaware that a lingering
  // registration now needs dropping within kLinger: let it look again.
  fabric_.wake();
}

void PollRegistration::endSpin() {
  // A plain increment, not a read-modify-write (a locked instruction): two threads ending
  // together may count once, and any change is all the progress thread looks for.
  spinEnds_.store(spinEnds_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  spinners_.fetch_sub(1, std::memory_order_seq_cst);
}

bool PollRegistration::dropIfIdle() {
  std::lock_guard lock(mutex_);
  if (!registered_.load(std::memory_order_seq_cst)) return false;
  registered_.store(false, std::memory_order_seq_cst);
  if (spinners_.load(std::memory_order_seq_cst) != 0) {
    registered_.store(true, std::memory_order_seq_cst);  // a thread spins (or just began): keep it
    return false;
  }
  fabric_.leavePolling();
  return true;
}

std::chrono::steady_clock::time_point PollRegistration::lingerDeadline(std::chrono::steady_clock::time_point now) {
  // Seen up to one progress-thread wake-up late (at most kLinger): the linger lasts up to
  // twice kLinger, never less.
  const uint64_t ends = spinEnds_.load(std::memory_order_relaxed);
  if (ends != seenEnds_) {
    seenEnds_ = ends;
    seenAt_ = now;
  }
  return seenAt_ + kLinger;
}

}  // namespace zmpi::mpi
