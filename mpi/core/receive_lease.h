#pragma once
// The right to receive from the fabric's inbox (Fabric::receive), held by one thread at a
// time: the progress thread, or a user thread waiting in the engine (leader/follower).
//
// On a rank whose every peer is reached through zmq (forced tcp, or one rank per host) a
// message otherwise crosses two thread hand-offs before a waiting thread sees it: zmq's
// I/O thread wakes our progress thread, which wakes the waiter -- each wake-up several
// microseconds on a VM. Holding the lease, the waiting thread receives from the inbox
// itself and the message crosses one hand-off, as in a plain zmq program (forced-tcp 8 B
// ping-pong, 2 ranks: 74-85 -> 49 us per message; raw zmq 53-59 us).
//
// How it moves: the progress thread holds it while no user thread waits. A waiting thread
// asks for it (wanted(); the progress thread is woken out of its receive, lends it and
// parks). After its wait the user thread leaves it free without waking anyone, betting
// that the program waits again soon -- a ping-pong then takes it back for the price of an
// atomic exchange -- and the parked progress thread takes it back once no user thread has
// taken it for kLinger, or at once after handBack() (a thread about to sleep on something
// only the progress thread would receive). A lease lent on request waits for its taker,
// however long the scheduler makes it wait (8 ranks on 2 cores: milliseconds). PollRegistration makes the same bet for
// the shared-memory rings. Zmq allows a socket to change threads across a full memory barrier: every change of holder
// is an acquire-release exchange of `state_`.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "transport/function_ref.h"

namespace zmpi::mpi {

class ReceiveLease {
 public:
  static constexpr std::chrono::milliseconds kLinger{1};

  // --- user threads ------------------------------------------------------------------
  // Takes the lease for a wait: at once if it is free; from the progress thread (calls
  // `wakeProgress` so that it looks, then blocks until it lets go). False if another user
  // thread holds it: then wait as a follower, someone else receives.
  bool takeForWait(transport::FunctionRef<void()> wakeProgress);
  // Takes it only if nobody holds it (MPI_Test and MPI_Iprobe loops receive this way).
  bool tryTake();
  // Gives it up. `handBack`: other threads wait and need someone receiving -- wakes the
  // parked progress thread to take it now instead of after kLinger.
  void release(bool handBack);
  // Called before sleeping on what only a receiving thread can bring: if the lease lies
  // free, the progress thread takes it now.
  void handBack();

  // --- the progress thread -----------------------------------------------------------
  // A user thread waits for the lease (checked every round of the progress loop).
  bool wanted() const { return wanted_.load(std::memory_order_acquire); }
  // Lends the lease to the asking thread and blocks until it is ours again (see above).
  // False once close() was called (the progress thread is to stop).
  bool lendAndWait();
  // The progress thread stops: a parked one returns from lendAndWait, and a lease it held
  // is left free for the user threads.
  void close();
  void progressExited();

  // Tests: how often user threads took the lease.
  uint64_t takes() const { return state_.load(std::memory_order_relaxed) >> kHolderBits; }

 private:
  // state_ = takes << kHolderBits | holder: the count of user takes is what the parked
  // progress thread watches (a clock read per take would cost more than the take).
  enum Holder : uint64_t { kProgress = 0, kFree = 1, kUser = 2 };
  static constexpr unsigned kHolderBits = 2;
  static constexpr uint64_t kHolderMask = (uint64_t{1} << kHolderBits) - 1;
  static Holder holderOf(uint64_t state) { return static_cast<Holder>(state & kHolderMask); }
  static uint64_t withHolder(uint64_t state, Holder holder) { return (state & ~kHolderMask) | holder; }

  std::atomic<uint64_t> state_{kProgress};
  std::atomic<bool> wanted_{false};
  std::mutex mutex_;  // for the sleeps below, never on the take/release path
  std::condition_variable changed_;
  uint64_t lends_ = 0;     // guarded by mutex_
  bool handBack_ = false;  // guarded by mutex_
  bool closed_ = false;    // guarded by mutex_
};

}  // namespace zmpi::mpi
