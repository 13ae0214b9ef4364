#pragma once
// Credit-based flow control of eager messages, per ordered pair of ranks. An eager message
// the receiver has not asked for yet is queued on its heap (Engine's unexpected queue):
// without a bound, a sender running ahead -- a root broadcasting in a loop -- makes its
// receivers hold everything it sent. So each sender counts the eager payload bytes it
// sent to a peer, each receiver counts the eager bytes from a sender it consumed (matched
// to a receive, or took by MPI_Improbe/Mprobe) and publishes that total now and then, and
// a message that would take sent - published over the pair's window goes by rendezvous
// instead (Rts/Cts: nothing of it is held by the receiver until its receive matches). A
// send never waits for credit, and the order of a pair's messages is their order on the
// pair's one channel, eager and Rts alike.
//
// Costs on the message path, a handful of instructions each side: a sender adds to its
// per-peer count and compares it with its cached limit, looking at what the peer published
// only when it passes the limit; a receiver adds under the match lock it holds anyway and
// publishes every window/4 bytes consumed -- or at once when it matches an Rts the sender
// marked as sent for want of credit, so a sender never stays starved by credit the
// receiver holds back. Same-host peers publish into the receiver's shared-memory segment
// (a store, read by the sender only when it needs credit); other paths by a Credit
// message. The sender's count is two: MPI_Send's path, where the program's threads send
// one at a time (below MPI_THREAD_MULTIPLE), claims credit in chunks of an eighth of the
// window and then spends it with a compare and a subtraction -- an atomic add per message
// would cost 9 ns on the 2-vCPU test machine, a tenth of a message; every other send (other
// threads, the nonblocking collectives' progress thread) adds atomically to the other
// count. Two threads reserving at once may each see the other's count just before it
// grew: the bound is then the window plus one message per such thread.
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>

#include "mpi/core/fabric.h"

namespace zmpi::mpi {

class EagerFlow {
 public:
  // `window` (ZMPI_EAGER_WINDOW; negative: unset) for every pair, or else
  // kWindowPerEagerLimit times the pair's eager limit; 0 turns flow control off.
  // `eagerLimit` is the engine's (ZMPI_EAGER_LIMIT) limit.
  EagerFlow(int worldRank, int worldSize, Fabric& fabric, long long window, std::size_t eagerLimit);

  static constexpr uint64_t kWindowPerEagerLimit = 16;  // 1 MiB over shared memory (why: mpi/README.md)
  static constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

  // --- sender ---------------------------------------------------------------------
  // Counts `bytes` about to be sent eagerly to `peer`; false (nothing counted) when they
  // would take the pair over its window: then send them by rendezvous, marked starved.
  // Any thread.
  bool reserve(int peer, uint64_t bytes) {
    SendSide& side = send_[static_cast<std::size_t>(peer)];
    const uint64_t shared = side.sentShared.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (shared + side.claimed.load(std::memory_order_relaxed) <= side.limit.load(std::memory_order_relaxed))
        [[likely]] {
      return true;
    }
    return reserveSlow(peer, side, bytes);
  }
  // The same for MPI_Send's path (Engine::sendEagerNow): from credit claimed ahead, without
  // an atomic add, where setSerialized(true) said that the program's threads never send
  // at the same time (else it is reserve()).
  bool reserveOwn(int peer, uint64_t bytes) {
    SendSide& side = send_[static_cast<std::size_t>(peer)];
    if (bytes <= side.room) [[likely]] {
      side.room -= bytes;
      return true;
    }
    return reserveOwnSlow(peer, side, bytes);
  }
  // Whether reserveOwn's callers are serialized (below MPI_THREAD_MULTIPLE). Set before
  // the first send.
  void setSerialized(bool serialized) { serialized_ = serialized; }
  // A Credit message from `peer`: it has consumed `total` eager bytes of ours.
  void granted(int peer, uint64_t total);
  uint64_t window(int peer) const { return send_[static_cast<std::size_t>(peer)].window; }

  // --- receiver (every call under the engine's match lock) ------------------------
  // Counts `bytes` of eager payload from `sender` consumed; true when a quarter window
  // has been since the last publication: then publishPending.
  bool consumed(int sender, uint64_t bytes) {
    RecvSide& side = recv_[static_cast<std::size_t>(sender)];
    side.consumed += bytes;
    return side.consumed >= side.publishAt;
  }
  // Publishes what `sender` has not been told yet (also on a starved Rts from it): returns
  // the total to send it in a Credit message (after the lock is released), or 0 -- the
  // fabric published it, or there was nothing new.
  uint64_t publishPending(int sender);

 private:
  // Eager payload bytes ever sent (or claimed) to the peer: claimed + sentShared.
  struct alignas(64) SendSide {
    uint64_t room = 0;                    // claimed, not yet spent by reserveOwn (serialized)
    std::atomic<uint64_t> claimed{0};     // by reserveOwn, spent or in `room`
    std::atomic<uint64_t> sentShared{0};  // by reserve (an atomic add)
    std::atomic<uint64_t> limit{0};       // what the sum may reach: last known consumed + window
    uint64_t window = kUnlimited;         // kUnlimited: no flow control (self, or turned off)
  };
  struct RecvSide {
    uint64_t consumed = 0;  // eager payload bytes from the sender ever consumed
    // The next total to publish at: the last one published + a quarter window.
    uint64_t publishAt = kUnlimited;
  };
  bool reserveSlow(int peer, SendSide& side, uint64_t bytes);
  bool reserveOwnSlow(int peer, SendSide& side, uint64_t bytes);
  // Raises the limit from what a same-host peer published (where it publishes so).
  void refresh(int peer, SendSide& side);
  uint64_t publish(int sender, RecvSide& side);
  uint64_t stepFor(int sender) const;
  static void raise(std::atomic<uint64_t>& limit, uint64_t value);

  int worldSize_;
  Fabric& fabric_;
  bool serialized_ = false;
  std::unique_ptr<SendSide[]> send_;
  std::unique_ptr<RecvSide[]> recv_;
};

}  // namespace zmpi::mpi
