#pragma once
// The point-to-point engine of one world: MPI matching (context, source, tag; wildcards;
// non-overtaking order per pair), the unexpected-message queue, and the eager /
// rendezvous / synchronous protocol (see envelope.h). User threads start operations and
// wait on a condition variable; the world's progress thread feeds every incoming message
// to onMessage(). The engine's mutex is never held while sending on the fabric.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "mpi/core/contention_watch.h"
#include "mpi/core/eager_flow.h"
#include "mpi/core/envelope.h"
#include "mpi/core/fabric.h"
#include "mpi/core/poll_registration.h"
#include "mpi/core/posted_queue.h"
#include "mpi/core/receive_lease.h"
#include "mpi/core/request.h"
#include "mpi/core/watchdog.h"
#include "transport/light_mutex.h"

namespace zmpi::mpi {

// A message that arrived before its receive was posted (or was taken by MPI_Mprobe).
struct IncomingMessage {
  MessageKind kind;  // Eager, EagerSync or Rts
  Envelope envelope;
  zmq::message_t payload;  // Eager kinds only
  uint64_t bytes() const { return kind == MessageKind::Rts ? envelope.totalBytes : payload.size(); }
};

class Engine {
 public:
  Engine(int worldRank, int worldSize, uint64_t jobHash, Fabric& fabric);
  // Lets the fabric's bulk connections deliver (from their I/O thread): once the engine is
  // configured (setSpinPolicy, setWaitersReceive), since a peer may send as soon as the
  // addresses are exchanged, before this rank's World is built.
  void startBulkDelivery();
  ~Engine();

  // --- user side -------------------------------------------------------------------
  // The request carries comm, buffer, count, type, peer (comm rank), tag, context, mode.
  void startSend(Request& request);
  // A standard-mode send of contiguous bytes within eagerLimit(), complete when it returns
  // (the fabric has taken them): MPI_Send's common case without a request, a lock or an
  // id -- a plain eager message gets no reply, so nothing needs to find it again. False,
  // with nothing sent, when the pair's eager window is used up (EagerFlow): then send it
  // with a request (startSend), which takes the rendezvous protocol.
  [[nodiscard]] bool sendEagerNow(int peerWorld, int context, int sourceRank, int tag, const void* data,
                                  uint64_t bytes);
  void startRecv(Request& request);
  // Receives a message removed by improbe/mprobe.
  void startMatchedRecv(Request& request, std::unique_ptr<IncomingMessage> message);
  bool cancel(Request& request);  // receives only; false if already matched

  // Blocks until the request is done (or the world is aborted: throws MpiError).
  void wait(Request& request);
  // Blocks until `ready()` holds, re-checking whenever the engine makes progress. Without
  // `spin` it blocks at once (see spinsFor: nothing it waits for comes through the rings).
  // `inboxTraffic`: what it waits for comes through the zmq inbox (not only through the
  // bulk connections), so a waiter may receive it itself (setWaitersReceive).
  // `transferBytes`: how much the awaited transfers move, which lengthens the spin (spinUntil).
  void waitUntil(const std::function<bool()>& ready, bool spin = true, bool inboxTraffic = true,
                 uint64_t transferBytes = 0);
  void freeRequest(Request& request);  // MPI_Request_free semantics
  // Delivers whatever waits in the shared-memory rings, on this thread (MPI_Test and
  // MPI_Iprobe loops progress this way), and, where waiting threads receive themselves
  // (setWaitersReceive) and nobody does now, what waits in the inbox. Returns how many
  // messages were delivered.
  std::size_t pollOnce();
  // The rings alone (the progress thread's round).
  std::size_t pollRings();
  // Call before sleeping on anything but wait()/waitUntil(): drops the user threads' poller
  // registration, so that senders wake the progress thread again, and hands a lingering
  // receive lease back to it.
  void prepareToBlock();
  // Whether a thread that waits here receives from the fabric's inbox itself instead of
  // sleeping while the progress thread does (ReceiveLease): for a rank whose every peer is
  // reached through zmq, where it saves a thread hand-off per message. Call before the
  // progress thread starts. ZMPI_RECEIVE_IN_WAIT=0 turns it off.
  void setWaitersReceive(bool on);
  bool waitersReceive() const { return waitersReceive_; }
  // Whether a thread that waits here, once its spin ends, sleeps on the same-host rings
  // itself (Fabric::beginRingSleep) instead of on the condition variable while the progress
  // thread waits for a doorbell through zmq: a sender then wakes it with one futex call.
  // On a rank whose every peer is on its host (Fabric::canSleepOnRings). A blocked 8 B
  // ping-pong (ZMPI_SPIN_US=0, 2 ranks) took 90-110 us a message through the doorbell, and
  // 4 ranks on 2 cores, where the spins run out often, paid that on most messages.
  // Call before the progress thread starts. ZMPI_SLEEP_ON_RINGS=0 turns it off.
  void setSleepOnRings(bool on);
  bool sleepsOnRings() const { return sleepOnRings_; }
  // Whether a thread that waits here reads the bulk connections itself (Fabric::
  // readBulkInWait) instead of sleeping while their I/O thread does: on a rank whose every
  // peer is reached over tcp (or ipc) with bulk connections, where small messages, Rts,
  // Cts and payloads all come that way, a message then crosses no thread hand-off
  // (forced-tcp 8 B ping-pong 16-18 -> 9-10 us; Open MPI's tcp BTL, which polls its
  // sockets in the waiting thread likewise, 9-11). One thread at a time; others sleep as
  // before. Set by startBulkDelivery; ZMPI_BULK_IN_WAIT=0 turns it off.
  bool waitersReadBulk() const { return waitersReadBulk_; }
  // The progress thread lends it out (World::progressLoop).
  ReceiveLease& receiveLease() { return lease_; }
  // Whether a message of `bytes` to or from `peerWorld` travels through the zmq inbox only
  // (eagerly): then a waiter receives it best itself. A rendezvous payload on the bulk
  // connection is completed by that connection's I/O thread, and a waiter blocked in the
  // inbox is woken from there through zmq's poll: a 2-rank forced-tcp alltoall of 256 KiB
  // took 250-260 us so against 165-170 us sleeping on the condition variable.
  // Small messages on the bulk connection too (ZmqFabric, ZMPI_BULK_SMALL): they arrive
  // through its I/O thread, so there a waiter sleeps on the condition variable.
  bool travelsThroughInbox(int peerWorld, uint64_t bytes) const {
    return (peerWorld < 0 || bytes <= eagerLimitTo(peerWorld)) && fabric_.smallMessagesOnInbox(peerWorld);
  }
  // How long a receiving waiter blocks in the fabric before it looks at what it waits for
  // even if nobody woke it (a wake-up lost to a race nobody foresaw costs this, not a
  // hang). Tests make it long, so that a missing wake-up hangs.
  void setReceiveRecheck(std::chrono::milliseconds period) { receiveRecheck_ = period; }

  // Probes the unexpected queue. Returns true and fills `status` if a match is queued.
  bool iprobe(int context, int source, int tag, MPI_Status* status);
  // `sourceWorld`: the source's world rank, or -1 for MPI_ANY_SOURCE (see spinsFor).
  void probe(int context, int source, int tag, MPI_Status* status, int sourceWorld = -1);
  std::unique_ptr<IncomingMessage> improbe(int context, int source, int tag, MPI_Status* status);
  std::unique_ptr<IncomingMessage> mprobe(int context, int source, int tag, MPI_Status* status, int sourceWorld = -1);

  // --- progress side ---------------------------------------------------------------
  void onMessage(transport::WireMessage&& wire);
  // A small message as a same-host ring holds it (Fabric::pollFast).
  void onCompact(const transport::CompactMessage& message);
  // Wakes every waiter with an error: the world is going down.
  void abort(const std::string& reason);
  void notifyProgress();

  // --- active messages ---------------------------------------------------------------
  // Message kinds >= kFirstActiveMessageKind are not point-to-point traffic: they go to a
  // handler registered for the kind (one-sided communication uses this for passive-target
  // operations). Handlers run on the progress thread: they must not block, and may send.
  static constexpr uint16_t kFirstActiveMessageKind = 16;
  using ActiveMessageHandler = std::function<void(transport::WireMessage&&)>;
  void setActiveMessageHandler(uint16_t kind, ActiveMessageHandler handler);
  void sendActiveMessage(int worldRank, uint16_t kind, const Envelope& envelope, zmq::message_t&& payload);
  uint64_t jobHash() const { return jobHash_; }
  int worldRank() const { return worldRank_; }

  // ZMPI_EAGER_LIMIT; the fabric may raise it per peer (Fabric::eagerLimit).
  std::size_t eagerLimit() const { return eagerLimit_; }
  // The largest message that goes eagerly to `peerWorld` (the fabric's choice per path).
  std::size_t eagerLimitTo(int peerWorld) const { return fabric_.eagerLimit(peerWorld, eagerLimit_); }
  // How long a waiting thread polls before it blocks (ZMPI_SPIN_US, default 50 us, 2 ms on
  // an oversubscribed host (setOversubscribed); 0 by
  // default for a rank without same-host peers, see setSpinPolicy).
  std::chrono::microseconds spinTime() const { return spinTime_; }
  // How often a spin yields the CPU (see pollsPerYield_): after every empty poll if
  // `yieldWhenIdle` (the host has more ranks than CPUs, or a peer is reached over zmq;
  // ZMPI_YIELD_WHEN_IDLE=0/1 overrides), else by whether this rank is bound to its CPUs.
  // Without `fastPeers` (no peer on the same-host path) nothing is gained by polling: every
  // message comes through zmq's I/O thread and the progress thread, and a spin that yields
  // gives its CPU away for a whole time slice whenever another process wants it -- a
  // forced-tcp 8 B ping-pong beside a 2-job build took 2 ms a message spinning, 38 us
  // blocking at once. Then the spin is 0 unless ZMPI_SPIN_US names one. Call before the
  // progress thread starts.
  // With both kinds of peers (`fastPeers` and `threadedPeers`: several ranks per host across
  // hosts) only a wait on a same-host peer spins, for the same reason (spinsFor), unless
  // ZMPI_SPIN_US names a spin.
  void setSpinPolicy(bool yieldWhenIdle, bool bound, bool fastPeers = true, bool threadedPeers = false);
  unsigned pollsPerYield() const { return pollsPerYield_.load(std::memory_order_relaxed); }
  // How many empty looks at the bulk connections a waiting thread makes between two yields
  // (readBulkUntil): one when the host has more ranks than CPUs (a rank beside it may be
  // waiting for this CPU; 4 ranks forced tcp took 2x as long with 16), else
  // kBulkLooksPerYield. A look is a poll() already, and a yield after each was half of
  // what a forced-tcp 8 B ping-pong spent between messages (9.8 -> 8.8 us one way with 8,
  // 2-rank collectives and 64 KiB-4 MiB unchanged). ZMPI_YIELD_WHEN_IDLE=1 yields after
  // every look, =0 every kBulkLooksPerYield. Call before the progress thread starts.
  // Also, oversubscribed, a wait spins kOversubscribedSpin unless ZMPI_SPIN_US names a spin: it
  // yields at every look, so a rank that has work gets the core, and a message that comes
  // within the spin costs no wake-up. Measured 2026-12-06 on the 2-core VM, alternating,
  // 50 us against 2 ms: LAMMPS (tests/apps input, 1000 steps) 4 ranks 1.35-1.52 -> 1.05-1.30
  // s (Open MPI sm 1.28-1.38), 8 ranks (500 steps) 1.12 -> 0.85 s (0.93); collectives
  // (`collectives --step 8`, 3 rounds) 4 ranks 0.42-1.06x the 50 us time for 4 KiB-4 MiB,
  // 8 ranks 0.16-0.98x but allgather 1 MiB 1.22x; 500 us lay between.
  void setOversubscribed(bool oversubscribed);
  static constexpr std::chrono::microseconds kOversubscribedSpin{2000};
  unsigned bulkLooksPerYield() const { return bulkLooksPerYield_; }
  static constexpr unsigned kBulkLooksPerYield = 8;
  // A rank bound to its core by default (not by an explicit ZMPI_BIND_TO) watches its spins'
  // yields and unbinds when another process contests the core (contention_watch.h). Call
  // before the progress thread starts. `settings` only for tests.
  void watchCoreContention(ContentionWatch::Settings settings = {});
  bool watchingCoreContention() const { return watchContention_.load(std::memory_order_relaxed); }
  // Whether a wait for a message from (or a send's completion by) `peerWorld` spins before
  // it blocks: only if that peer's messages come through the rings this thread can poll
  // itself. -1 (MPI_ANY_SOURCE, or not known): if some peer's do.
  bool spinsFor(int peerWorld) const {
    if (spinTime_.count() <= 0) return false;
    return spinEveryPeer_ || peerWorld < 0 || reachesThroughRings(peerWorld);
  }
  // Whether messages to and from `peerWorld` go through the same-host rings.
  bool reachesThroughRings(int peerWorld) const { return fabric_.isFastPeer(peerWorld); }
  // The world rank a wait on `request` waits for (-1: any), for spinsFor.
  static int waitedPeer(const Request& request);
  // Whether the progress thread spins after a message from zmq (not only after ring
  // traffic): where it is not the only way in, blocking at once answers the next one sooner
  // when the host is busy (see setSpinPolicy).
  bool spinsAfterZmqTraffic() const { return spinEveryPeer_; }
  std::size_t unexpectedCount();
  // The eager payload bytes queued unexpected (tests of the flow control).
  uint64_t unexpectedBytes();
  // How many eager payload bytes to or from `peerWorld` may be unconsumed at a time
  // (EagerFlow; EagerFlow::kUnlimited: no bound).
  uint64_t eagerWindow(int peerWorld) const { return flow_.window(peerWorld); }
  // Whether the program's threads call sendEagerNow one at a time (below
  // MPI_THREAD_MULTIPLE): then its flow-control count needs no atomic add. Default false.
  void setSendsSerialized(bool serialized) { flow_.setSerialized(serialized); }
  // The user threads' poller registration: while one spins in wait()/waitUntil() the
  // progress thread leaves the shared-memory rings alone, and it drops a registration
  // left lingering after the spin.
  PollRegistration& pollRegistration() { return polling_; }
  // Polls the shared-memory rings on this thread until `ready()` or spinTime() passes.
  // Returns whether `ready()` held. Also for waits outside the engine (coll/shm_wait.h:
  // a rank waiting on a shared-memory collective keeps draining its rings, as here).
  // A wait for a transfer of `transferBytes` spins as long as moving them takes too
  // (spinAllowance): one that blocks mid-transfer is woken only after it ends, a wake-up
  // the transfer then waits for (1 MiB same-host ping-pong 146-172 us with the bare spin,
  // 38-93 us with the allowance; Open MPI sm 110-118).
  bool spinUntil(transport::FunctionRef<bool()> ready, uint64_t transferBytes = 0);
  std::chrono::microseconds spinAllowance(uint64_t transferBytes) const;
  // Throws MpiError if the world is aborted (for waits outside the engine).
  void checkAborted();
  // Null unless ZMPI_WATCHDOG_SECONDS is set (for waits outside the engine to report).
  Watchdog* watchdog() { return watchdog_.get(); }

 private:
  struct ReleaseHint {
    Engine* engine;
    Request* request;
    std::atomic<uint64_t> pieces;  // zmq releases each piece; the last completes the send
  };
  // A receive whose rendezvous data is on its way, and how much of it has been stored.
  struct AwaitedData {
    Request* request;
    uint64_t arrived = 0;
  };
  static void releaseZeroCopy(void* data, void* hint);
  // The fabric's bulk path has taken the last byte of a rendezvous send.
  void bulkSent(Request& request);

  bool matches(const Request& request, const Envelope& envelope) const;
  static bool probeMatches(int context, int source, int tag, const Envelope& envelope);
  void deliver(Request& request, IncomingMessage& message);
  // An arriving Eager, EagerSync or Rts message: delivered to the first matching posted
  // receive where its payload lies, or queued unexpected with the payload `keep` gives.
  void arrive(MessageKind kind, const Envelope& envelope, const void* payload, uint64_t bytes,
              transport::FunctionRef<zmq::message_t()> keep);
  // The same for a message where it lies (an eager payload still in the fabric's buffer).
  void deliver(Request& request, MessageKind kind, const Envelope& envelope, const void* payload, uint64_t bytes);
  void unpackInto(Request& request, const void* data, uint64_t bytes, const Envelope& envelope);
  // The fabric's Placement: a rendezvous payload for a contiguous receive that can hold it
  // is written by the fast path straight into the user's buffer.
  void* placeData(const transport::WireHeader& header);
  void complete(Request& request);
  // Sends the payload for a Cts, in pieces if the receiver takes them and the path asks.
  void sendData(Request& request, uint64_t recvId, bool inPieces);
  // Reads an Rts's payload straight from its sender's buffer (same host, single copy),
  // sends ReadDone and completes the receive; false, with nothing done, where the fabric
  // cannot (then the receive asks for the data with a Cts).
  bool readDirect(Request& request, const Envelope& envelope);
  // A Data message for `request` arrived: stores it, and completes the receive with its last byte.
  void receiveData(Request& request, transport::WireMessage& wire, const Envelope& envelope);
  void reply(MessageKind kind, int toWorld, const Envelope& envelope);
  // For the eager flow control, with matchMutex_ held: counts a message a receive took
  // (from the wire or the unexpected queue; an Rts has no payload). True when its sender
  // is due credit now (a quarter window consumed): then call returnCredit, after the lock
  // -- kept out of the lock's scope, which stays one branch longer on the message path. (A
  // starved Rts returns credit when it is delivered: deliver().)
  bool noteConsumed(const Envelope& envelope, uint64_t payloadBytes) {
    return flow_.consumed(envelope.senderWorld, payloadBytes);
  }
  // Publishes what `senderWorld` is owed (takes matchMutex_; sends a Credit message where
  // the path has no shared counter). Never with mutex_ held.
  void returnCredit(int senderWorld);
  void fillProbeStatus(const IncomingMessage& message, MPI_Status* status);
  // Removes and returns the first queued message probe arguments match, or null; takes
  // matchMutex_ (the caller holds mutex_, so an arrival's notification is not missed).
  // `creditDue`: what noteConsumed said (the caller returns it once it let go of mutex_).
  std::unique_ptr<IncomingMessage> takeUnexpected(int context, int source, int tag, MPI_Status* status,
                                                  bool& creditDue);
  void throwIfAborted();
  // Waits as the receiving thread, if waiters receive here: takes the lease (or finds this
  // thread holds it already, in a nested wait) and receives and delivers messages on this
  // thread until `ready()` or the world aborts. False, having done nothing, if waiters do
  // not receive or another thread holds the lease (then wait as before).
  bool receiveUntil(transport::FunctionRef<bool()> ready);
  // Receives one message from the fabric and delivers it here; a failure aborts the world,
  // as on the progress thread. Returns whether a message came.
  bool receiveOne(std::chrono::milliseconds timeout);
  // Wakes the threads asleep on progress_ and a thread receiving in a wait (unless that is
  // us: it looks again after every message it delivers).
  void wakeWaiters();
  void wakeReceiver();
  bool anotherThreadReceives() const;
  // The first queued message probe arguments match, or null; the caller holds matchMutex_.
  const IncomingMessage* findUnexpected(int context, int source, int tag) const;
  // probe/mprobe: spins until such a message is queued or spinTime() passes.
  void spinForUnexpected(int context, int source, int tag, int sourceWorld);
  // Empty polls between two yields (and looks at the clock) for a rank bound to its own
  // core, and for an unbound one: a yield is a system call and a clock read 50-90 ns on
  // a VM, and a message arriving meanwhile waits for them; but an unbound rank may share
  // a CPU with the peer it waits for.
  static constexpr unsigned kPollsPerYieldBound = 256;
  static constexpr unsigned kPollsPerYieldUnbound = 64;

  int worldRank_;
  uint64_t jobHash_;
  Fabric& fabric_;
  std::size_t eagerLimit_;
  EagerFlow flow_;
  std::chrono::microseconds spinTime_;
  // Empty polls between yields: 1 with more ranks on this host than CPUs or a peer
  // reached over zmq (a peer, or our own progress and zmq I/O threads, may need this
  // core; Open MPI yields likewise when oversubscribed), else kPollsPerYieldBound or
  // kPollsPerYieldUnbound.
  std::atomic<unsigned> pollsPerYield_{kPollsPerYieldUnbound};
  // A spin's yield measured against the process's CPU time; unbinds if the watch decides
  // so. After a long yield the next kMeasuredYields are measured (two system calls each:
  // only then), since the one right after a busy process's time slice usually returns at once.
  void measuredYield();
  static constexpr int kMeasuredYields = 2000;
  std::atomic<int> measuredYieldsLeft_{0};
  std::atomic<bool> watchContention_{false};
  std::mutex contentionMutex_;
  ContentionWatch contention_;                       // guarded by contentionMutex_
  bool spinEveryPeer_ = true;                        // false: only waits on same-host peers spin (setSpinPolicy)
  unsigned bulkLooksPerYield_ = kBulkLooksPerYield;  // setOversubscribed
  PollRegistration polling_;
  bool waitersReceive_ = false;
  ReceiveLease lease_;
  // Sleeps on the rings until `ready()` or an abort (true), polling them after every
  // wake-up; false at once where waits do not sleep there (setSleepOnRings).
  bool sleepOnRings(transport::FunctionRef<bool()> ready);
  bool sleepOnRings_ = false;
  // Reads the bulk connections on this thread until `ready()` or an abort (true), or
  // returns false at once if another thread reads them (waitersReadBulk).
  bool readBulkUntil(transport::FunctionRef<bool()> ready);
  // A completion on another thread than the bulk reader's wakes it out of its poll.
  void wakeBulkReader();
  bool waitersReadBulk_ = false;
  std::chrono::microseconds bulkSpin_{200};  // ZMPI_BULK_SPIN_US
  std::atomic<bool> bulkReading_{false};
  std::atomic<std::thread::id> bulkReader_{};
  std::chrono::milliseconds receiveRecheck_{100};
  // A user thread receives in a wait (holds the lease), and which: a completion on any
  // other thread must wake it out of its receive.
  std::atomic<bool> receiverWaiting_{false};
  std::atomic<std::thread::id> receiver_{};

  std::mutex mutex_;
  std::condition_variable progress_;
  // Threads in (or about to enter) a wait()/waitUntil() sleep on progress_: a transient
  // request completes without the lock or a notify while there are none.
  std::atomic<int> sleepers_{0};
  std::atomic<uint64_t> nextId_{1};
  uint64_t epoch_ = 0;  // bumped on every completion and unexpected arrival
  // Matching has a lock of its own, the lightest there is: every message takes it once on
  // arrival and every receive once when posted, and pthread_mutex_lock/unlock cost about
  // 55 instructions a pair (~10% of an 8-byte message's path). It is never held across a
  // wait; when both are needed, mutex_ is taken first.
  transport::LightMutex matchMutex_;
  PostedQueue posted_;                                      // guarded by matchMutex_
  std::list<std::unique_ptr<IncomingMessage>> unexpected_;  // guarded by matchMutex_
  std::unordered_map<uint64_t, Request*> awaitingCts_;
  std::unordered_map<uint64_t, Request*> awaitingAck_;
  std::unordered_map<uint64_t, AwaitedData> awaitingData_;
  std::unordered_map<uint16_t, ActiveMessageHandler> activeHandlers_;
  // Active-message handlers (one-sided operations) write the program's memory on whichever
  // thread delivers them. The program may read it after a message that came after them
  // through other processes (the origin's flush, then a barrier): an order the kernel keeps,
  // but C++ (and TSan) see none when another of our threads delivers that later message,
  // as a waiter reading its own connections does. Each handler publishes its writes here
  // and each delivery acquires them, so whatever thread delivers, what came before is seen.
  std::atomic<uint64_t> handlerWrites_{0};
  void observeHandlerWrites() const { (void)handlerWrites_.load(std::memory_order_acquire); }
  bool aborted_ = false;
  std::atomic<bool> abortedFlag_{false};  // aborted_, for lock-free fast paths
  std::string abortReason_;
  std::unique_ptr<Watchdog> watchdog_;  // null unless ZMPI_WATCHDOG_SECONDS is set
};

}  // namespace zmpi::mpi
