#include "mpi/core/receive_lease.h"

namespace zmpi::mpi {

bool ReceiveLease::tryTake() {
  uint64_t state = state_.load(std::memory_order_relaxed);
  while (holderOf(state) == kFree) {
    const uint64_t taken = withHolder(state + (uint64_t{1} << kHolderBits), kUser);
    if (state_.compare_exchange_weak(state, taken, std::memory_order_acq_rel, std::memory_order_relaxed)) return true;
  }
  return false;
}

bool ReceiveLease::takeForWait(transport::FunctionRef<void()> wakeProgress) {
  for (;;) {
    if (tryTake()) return true;
    const Holder holder = holderOf(state_.load(std::memory_order_acquire));
    if (holder == kUser) return false;
    if (holder == kFree) continue;  // let go of just now
    // The progress thread holds it: ask, wake it out of its receive, and wait until it
    // lends it (it looks at wanted() every round; when it stops it leaves the lease free).
    // Asked and lent under the mutex, so a request is never lost. A lent lease stays free
    // until some thread takes it; if another did, and it went back to the progress thread
    // before we woke, the new lend count sends us round to ask again.
    std::unique_lock lock(mutex_);
    if (holderOf(state_.load(std::memory_order_acquire)) != kProgress) continue;
    wanted_.store(true, std::memory_order_release);
    const uint64_t lends = lends_;
    wakeProgress();
    changed_.wait(lock,
                  [&] { return lends_ != lends || holderOf(state_.load(std::memory_order_acquire)) != kProgress; });
  }
}

void ReceiveLease::release(bool handBackNow) {
  // Only the holder changes a held lease: no exchange needed.
  state_.store(withHolder(state_.load(std::memory_order_relaxed), kFree), std::memory_order_release);
  if (handBackNow) handBack();
}

void ReceiveLease::handBack() {
  if (holderOf(state_.load(std::memory_order_acquire)) == kProgress) return;
  {
    std::lock_guard lock(mutex_);
    handBack_ = true;
  }
  changed_.notify_all();
}

bool ReceiveLease::lendAndWait() {
  std::unique_lock lock(mutex_);
  wanted_.store(false, std::memory_order_relaxed);
  ++lends_;
  const uint64_t lent = withHolder(state_.load(std::memory_order_relaxed), kFree);
  state_.store(lent, std::memory_order_release);
  changed_.notify_all();
  uint64_t seen = lent;
  for (;;) {
    // Woken early only to stop or when handed back; otherwise look every kLinger.
    changed_.wait_for(lock, kLinger, [&] {
      return closed_ || (handBack_ && holderOf(state_.load(std::memory_order_acquire)) == kFree);
    });
    if (closed_) return false;
    uint64_t now = state_.load(std::memory_order_acquire);
    // Free, taken since we lent it (by the thread that asked: however long it takes to be
    // scheduled, the lease waits for it) and untaken since the last look (a take bumps the
    // count) -- or handed back.
    if (holderOf(now) == kFree && ((now != lent && now == seen) || handBack_)) {
      if (state_.compare_exchange_strong(now, withHolder(now, kProgress), std::memory_order_acq_rel)) {
        handBack_ = false;
        return true;
      }
    }
    seen = now;
  }
}

void ReceiveLease::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

void ReceiveLease::progressExited() {
  {
    std::lock_guard lock(mutex_);
    uint64_t state = state_.load(std::memory_order_relaxed);
    if (holderOf(state) == kProgress) state_.store(withHolder(state, kFree), std::memory_order_release);
  }
  changed_.notify_all();
}

}  // namespace zmpi::mpi
