#pragma once
// Same-host message passing through shared memory: one segment per receiver holding one
// single-producer/single-consumer byte ring per sender. A message (the usual WireHeader
// plus payload) is written as one or more fragments, so any size fits and the order of
// messages between a pair is exactly the order they were sent: the ring is the ordered
// channel, and a receiver never sees a reference to anything it has not mapped.
//
// Waking an idle receiver: the segment counts the receiver's threads that are actively
// polling. A sender that writes while nobody polls "rings the doorbell" once (the caller
// sends a small message on the receiver's zmq inbox, which its progress thread blocks on),
// so an idle receiver is woken promptly and a busy one costs the sender no system call.
// A receiving thread may instead sleep on the rings themselves (beginSleep .. endSleep):
// then a sender that finds no poller wakes it with a futex on the segment, and no zmq
// message, no progress thread stands between the write and the sleeper.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "transport/function_ref.h"
#include "transport/light_mutex.h"
#include "transport/shm_segment.h"
#include "transport/wire.h"

namespace zmpi::transport {

struct ShmMailboxLayout;  // defined in shm_mailbox.cc

class ShmInbox {
 public:
  // Creates the segment `name` with one ring of `ringBytes` (rounded up to a power of two)
  // per possible sender, for the messages of the job `jobHash` (WireHeader::jobHash).
  ShmInbox(const std::string& name, int senders, std::size_t ringBytes, uint64_t jobHash);
  ~ShmInbox();
  ShmInbox(const ShmInbox&) = delete;
  ShmInbox& operator=(const ShmInbox&) = delete;

  const std::string& name() const { return segment_.name(); }
  // Once every sender has mapped the segment its name can go (see SharedSegment).
  void unlinkName() { segment_.unlinkName(); }

  // Reads every complete message now in the rings and hands each to `deliver` (sender
  // index, message), a compact record (ShmOutbox::trySendCompact) to `deliverCompact` as it
  // lies. Only one thread drains at a time; another caller returns 0 at once.
  std::size_t drain(FunctionRef<void(int sender, WireMessage&&)> deliver,
                    FunctionRef<void(int sender, const CompactMessage&)> deliverCompact);
  // As above, compact records handed to `deliver` as WireMessages (see wireMessageOf).
  std::size_t drain(FunctionRef<void(int sender, WireMessage&&)> deliver);
  // Where a message's payload should go, asked when its first fragment arrives: a buffer
  // of at least header.payloadBytes, or null for a buffer of the message's own. The
  // receiver names its user's buffer for the data of a matched receive, so a large message
  // is copied once, from the ring to its destination. Set before the first drain; runs on
  // the draining thread.
  using Placement = std::function<void*(int sender, const WireHeader& header)>;
  void setPlacement(Placement placement) { placement_ = std::move(placement); }
  bool hasData() const;

  // A thread that will look at the rings soon without being told registers as a poller;
  // senders ring the doorbell only when there is none.
  void enterPolling();
  void leavePolling();
  void clearDoorbell();
  // A thread of the receiver sleeping until a sender writes (or wakeSleepers): it counts
  // itself and arms the bell (beginSleep), then -- after a full fence -- checks the rings
  // and its own condition, and sleeps (sleep) only if there is nothing; endSleep when it
  // is awake. While it is counted, senders finding no poller wake it instead of ringing
  // the doorbell, so it must look at the rings after every wake-up, and once more after
  // endSleep if it stops polling (what was written meanwhile rang nothing).
  void beginSleep();
  void sleep(std::chrono::nanoseconds timeout);
  void endSleep();
  // Wakes the sleepers from this process (something they wait for happened elsewhere);
  // no system call if none sleeps. Orders the caller's earlier stores before its look.
  void wakeSleepers();
  uint32_t sleepers() const;  // counted now (tests)
  // A count this receiver publishes for one sender, which reads it with
  // ShmOutbox::credit() when it wants (never on the message path): its meaning is the
  // caller's (the MPI engine's eager flow control: payload bytes consumed). Starts at 0.
  void publishCredit(int sender, uint64_t value);

 private:
  struct Reassembly {
    bool active = false;
    WireHeader header;
    zmq::message_t payload;
    uint8_t* target = nullptr;  // the placement's buffer, or null: into payload
    std::size_t filled = 0;
  };
  // One sender's ring as this side sees it: the addresses are computed once, and the size
  // (a power of two: positions wrap with a mask, not a division on every poll) is our own
  // copy, not re-read from memory every sender can write.
  struct Ring {
    std::atomic<uint64_t>* tail;
    uint8_t* data;
  };
  bool ringHasData(const Ring& ring) const;
  std::size_t drainRing(int sender, FunctionRef<void(int, WireMessage&&)> deliver,
                        FunctionRef<void(int, const CompactMessage&)> deliverCompact);

  SharedSegment segment_;
  ShmMailboxLayout* layout_;
  uint64_t ringBytes_;
  std::vector<Ring> rings_;
  std::atomic_flag draining_;  // one drainer at a time (a try-lock; drain() never waits)
  std::vector<Reassembly> partial_;
  Placement placement_;
};

class ShmOutbox {
 public:
  // Maps the receiver's segment and writes into ring `senderIndex`.
  ShmOutbox(const std::string& receiverName, int senderIndex);

  // Never blocks: what does not fit now is queued and written by flush(). Returns true
  // when the caller must ring the receiver's doorbell. The bytes are copied only as far as
  // they must wait for room.
  bool send(const WireHeader& header, const void* payload, std::size_t bytes);
  // The same, keeping `payload` itself until its last byte is in the ring instead of a
  // copy: a zero-copy frame's release then says when the sender's buffer is free again.
  bool send(const WireHeader& header, zmq::message_t&& payload);
  // The small-message fast path: a whole message of this job whose envelope is the first
  // kCompactEnvelopeBytes bytes at `envelope` followed by zeros, written as one compact
  // record -- if nothing is queued before it and it fits now. Otherwise nothing is written
  // and false returned: the caller sends it the general way. No WireHeader is built.
  // `ring` says whether the caller must ring the receiver's doorbell.
  bool trySendCompact(uint16_t kind, const void* envelope, const void* payload, std::size_t bytes, bool& ring);
  // Writes queued fragments; returns true if the doorbell should be rung. `wroteAny`, if
  // given, says whether any fragment went into the ring.
  bool flush(bool* wroteAny = nullptr);
  bool hasQueued();
  // The receiver's last ShmInbox::publishCredit for us (a load of its cache line).
  uint64_t credit() const;

 private:
  // A message not yet wholly in the ring: its header (until written) and payload bytes
  // from `offset` on.
  struct Pending {
    WireHeader header;
    bool headerWritten = false;
    zmq::message_t payload;
    std::size_t offset = 0;
  };
  // Writes as many fragments of the message as fit; true once all are written.
  bool writeFragments(const WireHeader& header, bool& headerWritten, const uint8_t* data, std::size_t bytes,
                      std::size_t& offset);
  // Writes one record made of `prefix` then `data` (either may be empty), or nothing.
  bool tryWrite(const uint8_t* prefix, std::size_t prefixBytes, const uint8_t* data, std::size_t dataBytes,
                uint16_t flags, uint16_t kind = 0);
  // Whether a whole message with this header may travel as a compact record.
  bool compactable(const WireHeader& header) const;
  bool wantsDoorbell();

  SharedSegment segment_;
  ShmMailboxLayout* layout_;
  int index_;
  uint64_t ringBytes_ = 0;  // a power of two (checked when opened)
  std::atomic<uint64_t>* head_ = nullptr;
  std::atomic<uint64_t>* tail_ = nullptr;
  std::atomic<uint64_t>* credit_ = nullptr;
  uint8_t* ring_ = nullptr;
  LightMutex mutex_;
  // The receiver's tail as last read: the ring has at least this much room, so the shared
  // tail is read again only when a record does not fit (one cache-line transfer less per
  // message).
  uint64_t knownTail_ = 0;
  std::deque<Pending> queued_;
  std::atomic<bool> anyQueued_{false};  // !queued_.empty(), readable without the mutex
};

}  // namespace zmpi::transport
