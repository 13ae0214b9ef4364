#include "transport/shm_mailbox.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <random>

#include "transport/errors.h"
#include "transport/futex.h"
#include "transport/payload_pool.h"
#include "transport/small_copy.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {

namespace {
constexpr uint32_t kMailboxMagic = 0x5a53484e;  // "ZSHN": the layout with sleepers
constexpr uint16_t kFirst = 1, kLast = 2, kPadding = 4, kCompact = 8;
constexpr std::size_t kRecordHeader = 16;
// A whole message whose header is the usual one of this job and whose envelope ends in
// this many zero bytes (every eager message: see mpi::Envelope) travels compact: the
// record holds only the envelope's first half and the payload, its kind in the record
// header's spare field. 16 + 24 + 8 bytes: a small message fills one cache line, not two.
constexpr std::size_t kCompactEnvelope = kCompactEnvelopeBytes;
constexpr std::size_t kRecordAlign = 64;  // a cache line: a small record starts on its own

// A record is published by its stamp, stored last: the receiver polls the stamp at its
// tail -- the very line that holds the start of the record -- rather than a separate head
// counter, which saves a cache-line transfer per message. The stamp is the record's
// position (bytes ever written before it, plus one) mixed with a random per-mailbox key,
// so neither zeroed memory nor old bytes from the previous lap of the ring can pass for it.
struct RecordHeader {
  uint64_t stamp;
  uint32_t bytes;  // data bytes after this header (unpadded)
  uint16_t flags;
  uint16_t kind;  // a compact record's message kind; else 0
};
static_assert(sizeof(RecordHeader) == kRecordHeader);

std::size_t alignRecord(std::size_t n) { return (n + kRecordAlign - 1) & ~(kRecordAlign - 1); }

// Rings are a power of two long (and so line-aligned): a position wraps with a mask.
uint64_t ringSizeFor(std::size_t requested) { return std::bit_ceil(std::max<uint64_t>(requested, 4 * kRecordAlign)); }

// Frees a record's ring space once its handler returns -- also when it throws: the
// record is never read twice.
struct Release {
  std::atomic<uint64_t>& tailOfRing;
  uint64_t tail;
  ~Release() { tailOfRing.store(tail, std::memory_order_release); }
};

std::atomic_ref<uint64_t> stampAt(uint8_t* record) {
  return std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(record));
}

struct alignas(64) RingControl {
  std::atomic<uint64_t> head;  // bytes ever written: the producer's own write position
  char pad0[56];
  std::atomic<uint64_t> tail;    // bytes ever consumed (consumer)
  std::atomic<uint64_t> credit;  // see ShmInbox::publishCredit (consumer)
  char pad1[48];
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "shared-memory rings need lock-free atomics");
}  // namespace

struct ShmMailboxLayout {
  std::atomic<uint32_t> magic;  // stored last (release): an opener that sees it sees the rest
  uint32_t senders;
  uint64_t ringBytes;
  uint64_t stampKey;  // see RecordHeader
  uint64_t jobHash;   // of every message a compact record holds
  // Senders read both of this line's counts after every write: one cache-line transfer.
  alignas(64) std::atomic<uint32_t> pollers;
  std::atomic<uint32_t> sleepers;  // receiving threads in ShmInbox::beginSleep .. endSleep
  alignas(64) std::atomic<uint32_t> doorbell;
  // The sleepers' futex word: 0 while armed (a sleeper waits for a ring), 1 once rung.
  std::atomic<uint32_t> sleepBell;
  alignas(64) char rest[1];

  RingControl& control(int sender) { return reinterpret_cast<RingControl*>(rest)[sender]; }
  uint8_t* ring(int sender) {
    return reinterpret_cast<uint8_t*>(rest) + sizeof(RingControl) * senders + ringBytes * static_cast<uint64_t>(sender);
  }
  static std::size_t bytesFor(int senders, std::size_t ringBytes) {
    return offsetof(ShmMailboxLayout, rest) + (sizeof(RingControl) + ringBytes) * static_cast<std::size_t>(senders);
  }
  uint64_t stampOf(uint64_t position) const { return (position + 1) ^ stampKey; }
};

// ------------------------------------------------------------------------------ inbox

ShmInbox::ShmInbox(const std::string& name, int senders, std::size_t ringBytes, uint64_t jobHash)
    : segment_(SharedSegment::create(name, ShmMailboxLayout::bytesFor(senders, ringSizeFor(ringBytes)))),
      layout_(static_cast<ShmMailboxLayout*>(segment_.data())),
      ringBytes_(ringSizeFor(ringBytes)),
      partial_(static_cast<std::size_t>(senders)) {
  layout_->senders = static_cast<uint32_t>(senders);
  layout_->ringBytes = ringBytes_;
  for (int s = 0; s < senders; ++s) rings_.push_back({&layout_->control(s).tail, layout_->ring(s)});
  std::random_device random;
  layout_->stampKey = (static_cast<uint64_t>(random()) << 32) ^ random();
  layout_->jobHash = jobHash;
  layout_->pollers.store(1);  // the owner counts as polling until it first sleeps
  layout_->sleepBell.store(1);
  layout_->magic.store(kMailboxMagic, std::memory_order_release);
}

ShmInbox::~ShmInbox() = default;

void ShmInbox::enterPolling() { layout_->pollers.fetch_add(1, std::memory_order_seq_cst); }
void ShmInbox::leavePolling() { layout_->pollers.fetch_sub(1, std::memory_order_seq_cst); }
void ShmInbox::clearDoorbell() { layout_->doorbell.store(0, std::memory_order_seq_cst); }

namespace {
// Rings the sleepers' bell once per arming: a sender that finds it rung already (the
// sleeper woke and has not slept again) makes no system call.
void ringSleepBell(ShmMailboxLayout& layout) {
  if (layout.sleepBell.exchange(1, std::memory_order_seq_cst) == 0) futexWakeAll(layout.sleepBell);
}
}  // namespace

void ShmInbox::beginSleep() {
  // Counted first, then armed: a sender that sees the count rings a bell that is armed or
  // about to be (and then the sleeper's check after the fence sees the sender's data).
  layout_->sleepers.fetch_add(1, std::memory_order_seq_cst);
  layout_->sleepBell.store(0, std::memory_order_seq_cst);
}

void ShmInbox::sleep(std::chrono::nanoseconds timeout) { futexWait(layout_->sleepBell, 0, timeout); }

uint32_t ShmInbox::sleepers() const { return layout_->sleepers.load(std::memory_order_seq_cst); }

void ShmInbox::endSleep() { layout_->sleepers.fetch_sub(1, std::memory_order_seq_cst); }

void ShmInbox::wakeSleepers() {
  // As a sender would (wantsDoorbell): whatever the caller published before is ordered
  // before the look at the count.
#if defined(__SANITIZE_THREAD__)
  if (layout_->sleepers.fetch_add(0, std::memory_order_seq_cst) == 0) return;
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (layout_->sleepers.load(std::memory_order_relaxed) == 0) return;
#endif
  ringSleepBell(*layout_);
}
void ShmInbox::publishCredit(int sender, uint64_t value) {
  layout_->control(sender).credit.store(value, std::memory_order_release);
}

bool ShmInbox::ringHasData(const Ring& ring) const {
  const uint64_t tail = ring.tail->load(std::memory_order_relaxed);
  uint8_t* next = ring.data + (tail & (ringBytes_ - 1));
  return stampAt(next).load(std::memory_order_seq_cst) == layout_->stampOf(tail);
}

bool ShmInbox::hasData() const {
  for (const Ring& ring : rings_) {
    if (ringHasData(ring)) return true;
  }
  return false;
}

std::size_t ShmInbox::drain(FunctionRef<void(int, WireMessage&&)> deliver,
                            FunctionRef<void(int, const CompactMessage&)> deliverCompact) {
  // Most calls come from a spin and find nothing: looking at each ring first makes such a
  // poll a load per ring, without the try-lock's read-modify-write, and a ring with nothing
  // in it costs no call.
  struct Lock {
    std::atomic_flag& flag;
    bool held = false;
    bool take() { return held || (held = !flag.test_and_set(std::memory_order_acquire)); }
    ~Lock() {
      if (held) flag.clear(std::memory_order_release);
    }
  } lock{draining_};
  std::size_t delivered = 0;
  for (std::size_t s = 0; s < rings_.size(); ++s) {
    if (!ringHasData(rings_[s])) continue;
    if (!lock.take()) return 0;  // another thread drains
    delivered += drainRing(static_cast<int>(s), deliver, deliverCompact);
  }
  return delivered;
}

std::size_t ShmInbox::drain(FunctionRef<void(int, WireMessage&&)> deliver) {
  const uint64_t jobHash = layout_->jobHash;
  return drain(deliver,
               [&](int sender, const CompactMessage& message) { deliver(sender, wireMessageOf(message, jobHash)); });
}

std::size_t ShmInbox::drainRing(int sender, FunctionRef<void(int, WireMessage&&)> deliver,
                                FunctionRef<void(int, const CompactMessage&)> deliverCompact) {
  std::atomic<uint64_t>& ringTail = *rings_[static_cast<std::size_t>(sender)].tail;
  uint8_t* ring = rings_[static_cast<std::size_t>(sender)].data;
  const uint64_t size = ringBytes_;
  const uint64_t mask = size - 1;
  uint64_t tail = ringTail.load(std::memory_order_relaxed);
  std::size_t delivered = 0;
  for (;;) {
    uint8_t* at = ring + (tail & mask);
    const uint64_t stamp = stampAt(at).load(std::memory_order_acquire);
    // Touch the record's second line in the same breath: a small message spans two, and
    // loading both together overlaps their transfers instead of paying for them in turn.
#if !defined(__SANITIZE_THREAD__)  // a deliberate racy read, its value unused
    if ((tail & mask) + kRecordAlign < size) (void)*reinterpret_cast<volatile const uint8_t*>(at + kRecordAlign);
#endif
    if (stamp != layout_->stampOf(tail)) break;
    // The order a record carries between processes (the sender's earlier work, and what it
    // learnt from this process before writing) is invisible to TSan, which watches one
    // process: a record counts as a hand-over like a zmq message (tsan_annotations.h). Seen
    // in CI: rank 0's main thread read its shared window before a barrier over the rings;
    // its progress thread later applied an accumulate sent after that barrier -- reported
    // as a race. Outside TSan builds this compiles to nothing.
    tsan::afterReceive();
    RecordHeader record{};
    std::memcpy(&record.bytes, at + offsetof(RecordHeader, bytes), kRecordHeader - offsetof(RecordHeader, bytes));
    const uint8_t* data = at + kRecordHeader;
    const uint64_t advance = alignRecord(kRecordHeader + record.bytes);
    if (advance > size - (tail & mask)) {
      throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) + " has a record past its end");
    }
    if (record.flags & kCompact) {
      if (record.bytes < kCompactEnvelope || (record.flags & (kPadding | kFirst | kLast)) != (kFirst | kLast)) {
        throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) +
                               " has a bad compact record");
      }
      tail += advance;
      const Release release{ringTail, tail};
      deliverCompact(sender,
                     CompactMessage{record.kind, data, data + kCompactEnvelope, record.bytes - kCompactEnvelope});
      ++delivered;
      continue;
    }
    if ((record.flags & (kPadding | kFirst | kLast)) == (kFirst | kLast)) {
      // A whole message in one record (every eager message): lent to the handler where it
      // lies, and the ring space freed only when the handler returns -- no copy and no
      // allocation unless the receiver keeps it. (The handler may send, but a send never
      // waits for ring space, so it cannot wait on us.)
      WireHeader header;
      std::memcpy(&header, data, sizeof header);
      const std::size_t chunk = record.bytes - sizeof header;
      if (record.bytes < sizeof header || header.magic != kWireMagic || header.payloadBytes != chunk) {
        throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) + " has a bad header");
      }
      tail += advance;
      const Release release{ringTail, tail};
      deliver(sender, WireMessage{header, {}, false, data + sizeof header});
      ++delivered;
      continue;
    }
    if (!(record.flags & kPadding)) {
      Reassembly& partial = partial_[static_cast<std::size_t>(sender)];
      std::size_t offset = 0;
      if (record.flags & kFirst) {
        std::memcpy(&partial.header, data, sizeof(WireHeader));
        if (partial.header.magic != kWireMagic || partial.header.payloadBytes > kMaxPayloadBytes) {
          throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) + " has a bad header");
        }
        // A one-record message is copied once anyway: only a longer one is worth placing.
        partial.target =
            placement_ && !(record.flags & kLast) ? static_cast<uint8_t*>(placement_(sender, partial.header)) : nullptr;
        partial.payload = partial.target ? zmq::message_t() : PayloadPool::take(partial.header.payloadBytes);
        partial.filled = 0;
        partial.active = true;
        offset = sizeof(WireHeader);
      }
      const std::size_t chunk = record.bytes - offset;
      if (!partial.active || partial.filled + chunk > partial.header.payloadBytes) {
        throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) + " is corrupt");
      }
      uint8_t* destination = partial.target ? partial.target : static_cast<uint8_t*>(partial.payload.data());
      std::memcpy(destination + partial.filled, data + offset, chunk);
      partial.filled += chunk;
      if (record.flags & kLast) {
        partial.active = false;
        if (partial.filled != partial.header.payloadBytes) {
          throw MalformedMessage("shared-memory ring from sender " + std::to_string(sender) + " ended a message short");
        }
        WireMessage message{partial.header, std::move(partial.payload), partial.target != nullptr};
        partial.target = nullptr;
        // Free the ring space before running the handler: it may send, and a full ring
        // back to us must never wait on our own consumption.
        tail += advance;
        ringTail.store(tail, std::memory_order_release);
        deliver(sender, std::move(message));
        ++delivered;
        continue;
      }
    }
    tail += advance;
    ringTail.store(tail, std::memory_order_release);
  }
  return delivered;
}

// ----------------------------------------------------------------------------- outbox

ShmOutbox::ShmOutbox(const std::string& receiverName, int senderIndex)
    : segment_(SharedSegment::open(receiverName)),
      layout_(static_cast<ShmMailboxLayout*>(segment_.data())),
      index_(senderIndex) {
  if (layout_->magic.load(std::memory_order_acquire) != kMailboxMagic || senderIndex < 0 ||
      static_cast<uint32_t>(senderIndex) >= layout_->senders) {
    throw TransportError("shared-memory mailbox " + receiverName + " is not ready or has no ring for sender " +
                         std::to_string(senderIndex));
  }
  ringBytes_ = layout_->ringBytes;
  if (!std::has_single_bit(ringBytes_) || ringBytes_ < 4 * kRecordAlign ||
      ShmMailboxLayout::bytesFor(static_cast<int>(layout_->senders), ringBytes_) > segment_.size()) {
    throw TransportError("shared-memory mailbox " + receiverName + " has a bad ring size " +
                         std::to_string(ringBytes_));
  }
  head_ = &layout_->control(index_).head;
  tail_ = &layout_->control(index_).tail;
  credit_ = &layout_->control(index_).credit;
  ring_ = layout_->ring(index_);
  knownTail_ = tail_->load(std::memory_order_acquire);
}

bool ShmOutbox::tryWrite(const uint8_t* prefix, std::size_t prefixBytes, const uint8_t* data, std::size_t dataBytes,
                         uint16_t flags, uint16_t kind) {
  const std::size_t bytes = prefixBytes + dataBytes;
  uint8_t* ring = ring_;
  const uint64_t size = ringBytes_;
  const uint64_t mask = size - 1;
  uint64_t head = head_->load(std::memory_order_relaxed);
  const uint64_t need = alignRecord(kRecordHeader + bytes);
  const uint64_t position = head & mask;
  uint64_t padding = position + need > size ? size - position : 0;
  if (size - (head - knownTail_) < padding + need) {
    knownTail_ = tail_->load(std::memory_order_acquire);
    if (size - (head - knownTail_) < padding + need) return false;
  }
  auto publish = [&](uint64_t at, uint32_t recordBytes, uint16_t recordFlags, uint16_t recordKind) {
    uint8_t* record = ring + (at & mask);
    std::memcpy(record + offsetof(RecordHeader, bytes), &recordBytes, sizeof recordBytes);
    std::memcpy(record + offsetof(RecordHeader, flags), &recordFlags, sizeof recordFlags);
    std::memcpy(record + offsetof(RecordHeader, kind), &recordKind, sizeof recordKind);
    tsan::beforeSend();  // see drainRing
    stampAt(record).store(layout_->stampOf(at), std::memory_order_release);
  };
  if (padding) {
    publish(head, static_cast<uint32_t>(padding - kRecordHeader), kPadding, 0);
    head += padding;
  }
  uint8_t* record = ring + (head & mask);
  if (prefixBytes == kCompactEnvelope) {
    std::memcpy(record + kRecordHeader, prefix, kCompactEnvelope);  // a constant size: inline
  } else {
    std::memcpy(record + kRecordHeader, prefix, prefixBytes);
  }
  copySmall(record + kRecordHeader + prefixBytes, data, dataBytes);
  publish(head, static_cast<uint32_t>(bytes), flags, kind);
  head_->store(head + need, std::memory_order_relaxed);  // ours alone: where to write next
  return true;
}

bool ShmOutbox::wantsDoorbell() {
  // Our ring write (head.store) must be ordered before reading the pollers, against the
  // receiver's pollers decrement before it re-checks the rings (Dekker). A full fence and
  // a plain load do it without taking the receiver's cache line exclusively; under
  // ThreadSanitizer, which cannot model fences, a read-modify-write does the same.
#if defined(__SANITIZE_THREAD__)
  const uint32_t pollers = layout_->pollers.fetch_add(0, std::memory_order_seq_cst);
  const uint32_t sleepers = pollers != 0 ? 0 : layout_->sleepers.fetch_add(0, std::memory_order_seq_cst);
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const uint32_t pollers = layout_->pollers.load(std::memory_order_relaxed);
  const uint32_t sleepers = pollers != 0 ? 0 : layout_->sleepers.load(std::memory_order_relaxed);
#endif
  if (pollers != 0) return false;
  // A receiving thread sleeps on the rings itself: wake it straight away, one futex call,
  // instead of a doorbell through zmq and the receiver's progress thread.
  if (sleepers != 0) {
    ringSleepBell(*layout_);
    return false;
  }
  return layout_->doorbell.exchange(1, std::memory_order_seq_cst) == 0;
}

bool ShmOutbox::writeFragments(const WireHeader& header, bool& headerWritten, const uint8_t* data, std::size_t bytes,
                               std::size_t& offset) {
  // Fragments hold at most a quarter of the ring, so a ring never needs to be empty for
  // one to fit, and a large message streams while the receiver drains. They are copied
  // straight from header and payload into the ring.
  const std::size_t maxFragment = ringBytes_ / 4 - kRecordHeader;
  if (!headerWritten && bytes + kCompactEnvelope <= maxFragment && compactable(header)) {
    if (!tryWrite(header.envelope.data(), kCompactEnvelope, data, bytes, kFirst | kLast | kCompact, header.kind)) {
      return false;
    }
    headerWritten = true;
    offset = bytes;
    return true;
  }
  while (!headerWritten || offset < bytes) {
    if (!headerWritten) {
      const std::size_t n = std::min(bytes - offset, maxFragment - sizeof header);
      if (!tryWrite(reinterpret_cast<const uint8_t*>(&header), sizeof header, data + offset, n,
                    static_cast<uint16_t>(kFirst | (offset + n == bytes ? kLast : 0)))) {
        return false;
      }
      headerWritten = true;
      offset += n;
    } else {
      const std::size_t n = std::min(bytes - offset, maxFragment);
      if (!tryWrite(data + offset, n, nullptr, 0, static_cast<uint16_t>(offset + n == bytes ? kLast : 0))) return false;
      offset += n;
    }
  }
  return true;
}

bool ShmOutbox::compactable(const WireHeader& header) const {
  if (header.magic != kWireMagic || header.version != kWireVersion || header.jobHash != layout_->jobHash) return false;
  uint64_t tail[kCompactEnvelope / sizeof(uint64_t)];
  std::memcpy(tail, header.envelope.data() + kCompactEnvelope, sizeof tail);
  return (tail[0] | tail[1] | tail[2]) == 0;
}

bool ShmOutbox::send(const WireHeader& header, const void* payload, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  const auto* data = static_cast<const uint8_t*>(payload);
  bool headerWritten = false;
  std::size_t offset = 0;
  if (queued_.empty() && writeFragments(header, headerWritten, data, bytes, offset)) return wantsDoorbell();
  // The caller may reuse its buffer once we return: what must wait is copied.
  queued_.push_back({header, headerWritten, zmq::message_t(data + offset, bytes - offset), 0});
  anyQueued_.store(true, std::memory_order_relaxed);
  return wantsDoorbell();
}

bool ShmOutbox::trySendCompact(uint16_t kind, const void* envelope, const void* payload, std::size_t bytes,
                               bool& ring) {
  if (bytes + kCompactEnvelope > ringBytes_ / 4 - kRecordHeader) return false;  // as writeFragments
  std::lock_guard lock(mutex_);
  if (!queued_.empty() || !tryWrite(static_cast<const uint8_t*>(envelope), kCompactEnvelope,
                                    static_cast<const uint8_t*>(payload), bytes, kFirst | kLast | kCompact, kind)) {
    return false;
  }
  ring = wantsDoorbell();
  return true;
}

bool ShmOutbox::send(const WireHeader& header, zmq::message_t&& payload) {
  std::unique_lock lock(mutex_);
  bool headerWritten = false;
  std::size_t offset = 0;
  if (queued_.empty() &&
      writeFragments(header, headerWritten, static_cast<const uint8_t*>(payload.data()), payload.size(), offset)) {
    const bool ring = wantsDoorbell();
    lock.unlock();  // the frame's release (a request completing) may send: not under our lock
    payload.rebuild();
    return ring;
  }
  queued_.push_back({header, headerWritten, std::move(payload), offset});
  anyQueued_.store(true, std::memory_order_relaxed);
  return wantsDoorbell();
}

bool ShmOutbox::flush(bool* wroteAny) {
  std::deque<Pending> written;  // released after the lock: a frame's release may send
  bool ring = false;
  bool wrote = false;
  {
    std::lock_guard lock(mutex_);
    if (queued_.empty()) return false;
    while (!queued_.empty()) {
      Pending& next = queued_.front();
      const bool hadHeader = next.headerWritten;
      const std::size_t before = next.offset;
      const bool done =
          writeFragments(next.header, next.headerWritten, static_cast<const uint8_t*>(next.payload.data()),
                         next.payload.size(), next.offset);
      wrote |= next.headerWritten != hadHeader || next.offset != before;
      if (!done) break;
      written.push_back(std::move(next));
      queued_.pop_front();
    }
    anyQueued_.store(!queued_.empty(), std::memory_order_relaxed);
    ring = wrote && wantsDoorbell();
  }
  if (wroteAny != nullptr) *wroteAny = wrote;
  return ring;
}

uint64_t ShmOutbox::credit() const { return credit_->load(std::memory_order_acquire); }

bool ShmOutbox::hasQueued() {
  // The flag changes only under the mutex, by this side; a reader that races a send or a
  // flush sees either state, and the progress thread's next flush settles it.
  return anyQueued_.load(std::memory_order_relaxed);
}

}  // namespace zmpi::transport
