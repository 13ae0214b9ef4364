#include "mpi/core/poll_registration.h"

#include <time.h>

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
  // The coarse clock (a few ns; steady_clock's ~50-90 ns on a VM would sit between a
  // message's arrival and the user's next call): lagging by up to one tick (1-4 ms), it
  // only shortens the linger.
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  const auto coarse = std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
  lastSpin_.store(std::chrono::duration_cast<std::chrono::steady_clock::duration>(coarse).count(),
                  std::memory_order_relaxed);
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

std::chrono::steady_clock::time_point PollRegistration::lingerDeadline() const {
  const auto last = std::chrono::steady_clock::duration(lastSpin_.load(std::memory_order_relaxed));
  return std::chrono::steady_clock::time_point(last) + kLinger;
}

}  // namespace zmpi::mpi
