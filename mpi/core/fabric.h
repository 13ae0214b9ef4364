#pragma once
// The network as the MPI engine sees it: send a wire message to a world rank, receive the
// next message addressed to this rank, wake a blocked receive. Two implementations: the
// zmq fabric (real sockets) and the mock fabric (in-process, recording every send, for
// tests that assert exactly which messages a collective sends, to whom, in which order).
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "transport/function_ref.h"
#include "transport/wire.h"

namespace zmpi::mpi {

// How long a blocked progress thread sleeps at most before it looks at its same-host rings
// again, doorbell or not: a doorbell is a zmq message, and a sender that exits right after
// writing to a ring (finalize, MPI_Abort, a crash) can take it along undelivered.
inline constexpr std::chrono::milliseconds kRingRecheck{100};

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual void send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) = 0;
  // Sends `bytes` from `data`, which the caller may reuse as soon as this returns. The
  // same-host path writes them straight into the peer's ring, with no message in between.
  virtual void sendBytes(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes) {
    send(worldRank, header, zmq::message_t(data, bytes));
  }
  // The small-message fast path: a whole message of `kind` whose envelope is the
  // transport::kCompactEnvelopeBytes at `envelope` followed by zeros, written straight into
  // a same-host ring without building a WireHeader. False if this fabric or path cannot
  // (nothing was sent): the caller then uses sendBytes.
  virtual bool trySendCompact(int worldRank, uint16_t kind, const void* envelope, const void* data, std::size_t bytes) {
    return false;
  }
  // Only the progress thread calls receive(). Returns nullopt on timeout or wake().
  virtual std::optional<transport::WireMessage> receive(std::chrono::milliseconds timeout) = 0;
  // The largest message sent eagerly to `worldRank`; `fallback` is the engine's limit
  // (ZMPI_EAGER_LIMIT). A path whose round trip is expensive (zmq over tcp) raises it.
  virtual std::size_t eagerLimit(int worldRank, std::size_t fallback) const { return fallback; }
  // The size of the pieces a rendezvous payload to `worldRank` is best sent in; 0: whole.
  // Over zmq the receiver gets each piece in a buffer of zmq's and copies it into place:
  // in pieces that copy overlaps the transfer of the next piece.
  virtual std::size_t dataPieceBytes(int worldRank) const { return 0; }
  // Whether some peer's messages arrive through threads of the fabric (zmq's I/O thread,
  // then the progress thread) rather than through pollFast() on the waiting thread itself:
  // then a spinning thread must leave them the CPU.
  virtual bool hasThreadedPeers() const { return false; }
  // Whether small messages from `worldRank` (-1: from some peer) arrive through the inbox
  // that receive() reads -- not through the fast path nor a thread of the fabric's own --,
  // so that a waiting thread may receive them itself (Engine::travelsThroughInbox).
  virtual bool smallMessagesOnInbox(int worldRank) const { return true; }
  // Whether some peer is reached through the same-host fast path (pollFast): only then does
  // a waiting thread gain by polling before it blocks.
  virtual bool hasFastPeers() const { return false; }
  // Whether `worldRank` is reached through the same-host fast path (its messages arrive
  // through pollFast, which a waiting thread can call itself).
  virtual bool isFastPeer(int worldRank) const { return false; }
  // The pid of `worldRank`'s process when a large message from it may be read straight
  // from its sender's buffer (transport/process_memory.h: a same-host peer in this pid
  // namespace, single copy not turned off, never refused by the kernel); else 0.
  virtual int singleCopyPid(int worldRank) const { return 0; }
  // The pid of `worldRank`'s process when it is a same-host peer in this pid namespace,
  // whatever single copy is set to (one-sided windows probe it for themselves); else 0.
  virtual int hostPeerPid(int worldRank) const { return 0; }
  // The kernel refused a direct read from `worldRank` (errno `error`): its messages take the
  // rings again.
  virtual void singleCopyRefused(int worldRank, int error) {}
  // Sends a rendezvous payload (the Data message `header` announces) over a plain data
  // connection, straight from `data`, which must stay valid until `done` runs (on this
  // thread or the fabric's I/O thread, once the last byte is with the kernel). False, with
  // nothing sent, where there is no such path to `worldRank`: then send() it.
  // (The callbacks are taken by value for the overrides, which keep them; the defaults
  // ignore them, which clang-tidy's performance-unnecessary-value-param misreads.)
  virtual bool sendBulk(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes,
                        std::function<void()> done) {  // NOLINT(performance-unnecessary-value-param)
    return false;
  }
  // Connects the bulk path to `worldRank` ahead of its first use, where there is one (so
  // that a reply over it, a Cts, finds the connection); false where there is none.
  virtual bool prepareBulk(int worldRank) { return false; }
  // Starts the bulk path's receiving side (once, before traffic): complete messages go to
  // `deliver` (from a thread of the fabric; their payloads placed by the Placement where it
  // names a buffer), and a connection that breaks with bytes lost is reported to `failed`.
  virtual void startBulk(
      std::function<void(transport::WireMessage&&)> deliver,  // NOLINT(performance-unnecessary-value-param)
      std::function<void(const std::string& why)> failed) {}  // NOLINT(performance-unnecessary-value-param)
  // --- a waiting thread reading the bulk connections (BulkLink::readAsWaiter) ---
  // Whether waits should: small messages and rendezvous come over them, and no peer
  // through the same-host fast path (whose waits spin on the rings instead).
  virtual bool readsBulkInWait() const { return false; }
  // Reads them on this thread for up to `timeout` (zero: one look); whether anything came
  // (a frame, or bytes of one under way). wakeBulkReader() ends the wait early.
  virtual bool readBulkInWait(std::chrono::milliseconds timeout) { return false; }
  virtual void wakeBulkReader() {}
  // Hands them back to the fabric's I/O thread now (no thread is about to read them).
  virtual void releaseBulk() {}
  virtual void wake() = 0;
  // Stops sending and receiving; called once, after the last message, before destruction.
  virtual void close() = 0;

  // --- the same-host fast path (shared memory); fabrics without one keep the defaults ---
  // Delivers every message already waiting in shared memory, without blocking; any thread
  // may call it (one drains at a time). A small message sent by trySendCompact goes to
  // `deliverCompact` as it lies. Also writes what our sends left queued for a full ring, as
  // far as the rings now have room. Returns how many messages were delivered, plus one if
  // queued fragments were written.
  virtual std::size_t pollFast(transport::FunctionRef<void(transport::WireMessage&&)> deliver,
                               transport::FunctionRef<void(const transport::CompactMessage&)> deliverCompact) {
    return 0;
  }
  // A thread about to look at the fast path without being woken registers itself, so
  // senders skip the doorbell while it does.
  virtual void enterPolling() {}
  virtual void leavePolling() {}
  virtual bool hasFastData() { return false; }
  // A waiting thread may sleep on the fast path itself (transport::ShmInbox::beginSleep):
  // senders then wake it with a futex, with no doorbell through zmq and no progress thread
  // in between. Only where every peer is reached that way (ZmqFabric).
  virtual bool canSleepOnRings() const { return false; }
  virtual void beginRingSleep() {}
  virtual void ringSleep(std::chrono::nanoseconds timeout) {}
  virtual void endRingSleep() {}
  // Wakes such sleepers from this process; no system call if none sleeps.
  virtual void wakeRingSleepers() {}
  // Writes messages that did not fit into a full ring; true while some are still queued.
  virtual bool flushQueued() { return false; }
  // Whether some are still queued, without writing them.
  virtual bool hasQueued() { return false; }
  // Where the payload of an incoming message should be written, asked by a fast path that
  // reassembles long messages from pieces (ShmInbox::Placement): a buffer of at least
  // header.payloadBytes, or null. A message so placed arrives with `placed` set. Set once,
  // before any traffic.
  using Placement = std::function<void*(const transport::WireHeader& header)>;
  virtual void setPlacement(const Placement& placement) {}

  // --- eager flow control (mpi/core/eager_flow.h) ---
  // Receiver: makes `total`, the eager payload bytes ever consumed from `worldRank`, visible
  // to it where the path to it shares memory, and returns true; false: the caller sends a
  // Credit message instead.
  virtual bool publishConsumed(int worldRank, uint64_t total) { return false; }
  // Sender: the latest total `worldRank` published through shared memory, and true; false
  // where its credit comes in Credit messages.
  virtual bool peerConsumed(int worldRank, uint64_t& total) { return false; }
};

}  // namespace zmpi::mpi
