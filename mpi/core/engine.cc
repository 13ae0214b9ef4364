#include "mpi/core/engine.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>
#include <vector>

#include "mpi/core/cpu_binding.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/traffic_counters.h"
#include "mpi/datatype/datatype.h"
#include "transport/bulk_settings.h"
#include "transport/log.h"
#include "transport/payload_pool.h"
#include "transport/process_memory.h"
#include "transport/small_copy.h"
#include "transport/tsan_annotations.h"

namespace zmpi::mpi {
namespace {

const transport::IntSetting kEagerLimitSetting{
    "ZMPI_EAGER_LIMIT",
    64 * 1024,
    {0, 1LL << 30},
    "bytes",
    transport::Level::Tuning,
    "largest message sent eagerly (with its payload) over shared memory; larger ones go by rendezvous"};
const transport::IntSetting kEagerWindowSetting{
    "ZMPI_EAGER_WINDOW",
    transport::Auto{},
    {0, 1LL << 40},
    "bytes",
    transport::Level::Tuning,
    "eager bytes a rank may have sent a peer that the peer has not received; past it small messages go by "
    "rendezvous (default 16 eager limits; 0: no bound)"};
const transport::IntSetting kSpinSetting{
    "ZMPI_SPIN_US",
    transport::Auto{},
    {0, 1LL << 30},
    "microseconds",
    transport::Level::Tuning,
    "how long a waiting thread polls before blocking (default 50 with a same-host peer, 2000 where the host has "
    "more ranks than CPUs, 0 with no same-host peer)"};
const transport::BoolSetting kYieldWhenIdleSetting{
    "ZMPI_YIELD_WHEN_IDLE", transport::Auto{}, transport::Level::Tuning,
    "whether polling yields the CPU after every empty look (default: only where the host has more ranks than "
    "CPUs)"};
const transport::Experiment kBulkInWaitExperiment{
    "bulk-in-wait", true, "ZMPI_BULK_IN_WAIT",
    "a waiting thread reads the bulk connections itself where no peer shares its host"};
const transport::Experiment kSleepOnRingsExperiment{
    "sleep-on-rings", true, "ZMPI_SLEEP_ON_RINGS",
    "a waiting thread whose peers are all on its host sleeps on its rings, woken by the sender's futex"};
const transport::Experiment kReceiveInWaitExperiment{
    "receive-in-wait", true, "ZMPI_RECEIVE_IN_WAIT",
    "a waiting thread whose peers are all reached through zmq receives from the inbox itself"};

// One spin-wait step: keeps the compiler from hoisting the polled loads. Deliberately no
// `pause` instruction: on virtual machines a loop of them trips the hypervisor's
// pause-loop exiting and the vCPU is descheduled (measured: latency grew with the
// number of pauses between polls).
inline void cpuRelax() { asm volatile("" ::: "memory"); }

void setStatus(MPI_Status& status, int source, int tag, uint64_t bytes, int error) {
  status.MPI_SOURCE = source;
  status.MPI_TAG = tag;
  status.MPI_ERROR = error;
  status._cancelled = 0;
  status._ucount = bytes;
}

// ThreadSanitizer neither models nor compiles fences: there every completion takes the
// lock, which it understands.
#if defined(__SANITIZE_THREAD__)
constexpr bool kLockFreeCompletion = false;
#else
constexpr bool kLockFreeCompletion = true;
#endif

// Counts a thread among the sleepers for its whole wait; the fence orders the count
// before the thread's next look at what it waits for (see Engine::complete).
class SleeperCount {
 public:
  explicit SleeperCount(std::atomic<int>& count) : count_(count) {
    count_.fetch_add(1, std::memory_order_relaxed);
#if !defined(__SANITIZE_THREAD__)  // there complete() always locks (see kLockFreeCompletion)
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
  }
  ~SleeperCount() { count_.fetch_sub(1, std::memory_order_relaxed); }
  SleeperCount(const SleeperCount&) = delete;
  SleeperCount& operator=(const SleeperCount&) = delete;

 private:
  std::atomic<int>& count_;
};

// A thread waiting on the same-host rings (Engine::sleepOnRings) as one of the mailbox's
// pollers, and as one of its sleepers: each count is left on every way out, a delivery or a
// ready() that throws included -- a stale count would keep senders from waking anyone.
class RingPoller {
 public:
  explicit RingPoller(Fabric& fabric) : fabric_(fabric) {}
  ~RingPoller() { leave(); }
  RingPoller(const RingPoller&) = delete;
  RingPoller& operator=(const RingPoller&) = delete;
  void enter() {
    fabric_.enterPolling();
    counted_ = true;
  }
  void leave() {
    if (counted_) fabric_.leavePolling();
    counted_ = false;
  }

 private:
  Fabric& fabric_;
  bool counted_ = false;
};

class RingSleeper {
 public:
  explicit RingSleeper(Fabric& fabric) : fabric_(fabric) { fabric_.beginRingSleep(); }
  ~RingSleeper() { fabric_.endRingSleep(); }
  RingSleeper(const RingSleeper&) = delete;
  RingSleeper& operator=(const RingSleeper&) = delete;

 private:
  Fabric& fabric_;
};

}  // namespace

Engine::Engine(int worldRank, int worldSize, uint64_t jobHash, Fabric& fabric)
    : worldRank_(worldRank),
      jobHash_(jobHash),
      fabric_(fabric),
      eagerLimit_(static_cast<std::size_t>(setting(kEagerLimitSetting))),
      flow_(worldRank, worldSize, fabric, settingIfSet(kEagerWindowSetting).value_or(-1), eagerLimit_),
      spinTime_(settingIfSet(kSpinSetting).value_or(50)),
      polling_(fabric) {
  if (const auto period = Watchdog::configuredPeriod(); period.count() > 0)
    watchdog_ = std::make_unique<Watchdog>(period);
  fabric_.setPlacement([this](const transport::WireHeader& header) { return placeData(header); });
}

void Engine::startBulkDelivery() {
  // Before the I/O thread starts: its completions read these (wakeWaiters).
  waitersReadBulk_ = fabric_.readsBulkInWait() && experiment(kBulkInWaitExperiment);
  // As long as the bulk I/O thread spins after a frame (the same setting: the waiter reads
  // in its place).
  bulkSpin_ = std::chrono::microseconds(setting(transport::kBulkSpinSetting));
  fabric_.startBulk([this](transport::WireMessage&& message) { onMessage(std::move(message)); },
                    [this](const std::string& why) { abort(why); });
}

Engine::~Engine() {
  // A completion on another thread (zmq's I/O thread in a zero-copy free function) may still
  // be inside complete() when its waiter, having seen `done`, ends the world: wait until it
  // lets go of the lock (complete() touches nothing of the engine after that).
  std::lock_guard lock(mutex_);
}

bool Engine::matches(const Request& request, const Envelope& envelope) const {
  return request.context == envelope.context && (request.peer == MPI_ANY_SOURCE || request.peer == envelope.source) &&
         (request.tag == MPI_ANY_TAG || request.tag == envelope.tag);
}

bool Engine::probeMatches(int context, int source, int tag, const Envelope& envelope) {
  return context == envelope.context && (source == MPI_ANY_SOURCE || source == envelope.source) &&
         (tag == MPI_ANY_TAG || tag == envelope.tag);
}

void Engine::throwIfAborted() {
  if (aborted_) fail(MPI_ERR_OTHER, "the job is ending: " + abortReason_);
}

void Engine::checkAborted() {
  if (!abortedFlag_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(mutex_);
  throwIfAborted();
}

// ---------------------------------------------------------------------------- sends

void Engine::startSend(Request& request) {
  const Datatype& type = *request.type;
  const uint64_t bytes = static_cast<uint64_t>(request.count) * type.size();
  const void* data = request.buffer;
  if (!type.contiguous() && bytes > 0) {
    request.packed.resize(bytes);
    type.pack(request.buffer, static_cast<std::size_t>(request.count), request.packed.data());
    data = request.packed.data();
  } else if (bytes > 0) {
    data = static_cast<const char*>(request.buffer) + type.trueLb();
  }
  Envelope envelope;
  envelope.context = request.context;
  envelope.source = request.commRank;
  envelope.tag = request.tag;
  envelope.senderWorld = worldRank_;
  envelope.totalBytes = bytes;
  // Once registered below, a reply (Cts, SyncAck) may complete and free the request on the
  // progress thread: everything needed afterwards is read first.
  const int peer = request.peerWorld;
  const bool sync = request.mode == SendMode::Synchronous;
  bool eager = bytes <= eagerLimitTo(peer);
  // Within the limit but over the pair's window (EagerFlow): by rendezvous, marked so that
  // the receiver returns the credit it holds when its receive takes it.
  if (eager && !flow_.reserve(peer, bytes)) {
    eager = false;
    envelope.recvId = kStarvedRts;
  }
  {
    std::lock_guard lock(mutex_);
    throwIfAborted();
    request.id = nextId_.fetch_add(1, std::memory_order_relaxed);
    // Only a reply needs the id; without it an eager envelope stays compact (Envelope).
    if (!eager || sync) envelope.sendId = request.id;
    if (!eager) {
      awaitingCts_[request.id] = &request;
    } else if (sync) {
      awaitingAck_[request.id] = &request;
    }
  }
  if (!eager) {
    // A same-host receiver may read the payload from here (readDirect) instead of asking
    // for it; `data` (the user's buffer or the packed copy) stays until the send completes.
    if (fabric_.singleCopyPid(peer) != 0) envelope.offset = reinterpret_cast<uintptr_t>(data);
    // The peer's Cts and our data take the bulk connection where there is one: make it
    // now, on this thread, not on the fabric's I/O thread when the Cts arrives.
    fabric_.prepareBulk(peer);
    fabric_.send(peer, makeHeader(MessageKind::Rts, jobHash_, envelope, 0), zmq::message_t());
    noteRendezvousSend();
    return;
  }
  // The fabric is done with `data` when sendBytes returns; until then no reply can exist
  // (the peer has not seen the message), so the request -- and its packed buffer -- is
  // alive.
  fabric_.sendBytes(peer, makeHeader(sync ? MessageKind::EagerSync : MessageKind::Eager, jobHash_, envelope, bytes),
                    data, bytes);
  if (!sync) {
    setStatus(request.status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
    complete(request);
  }
}

bool Engine::sendEagerNow(int peerWorld, int context, int sourceRank, int tag, const void* data, uint64_t bytes) {
  if (abortedFlag_.load(std::memory_order_relaxed)) {
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  if (!flow_.reserveOwn(peerWorld, bytes)) return false;
  Envelope envelope;
  envelope.context = context;
  envelope.source = sourceRank;
  envelope.tag = tag;
  envelope.senderWorld = worldRank_;
  envelope.totalBytes = bytes;
  // Usually straight into the peer's ring as one compact record: an eager envelope's ids
  // are zero, so only its first half travels (see Envelope).
  static_assert(offsetof(Envelope, sendId) == transport::kCompactEnvelopeBytes);
  if (fabric_.trySendCompact(peerWorld, static_cast<uint16_t>(MessageKind::Eager), &envelope, data, bytes)) {
    return true;
  }
  fabric_.sendBytes(peerWorld, makeHeader(MessageKind::Eager, jobHash_, envelope, bytes), data, bytes);
  return true;
}

void Engine::releaseZeroCopy(void*, void* hint) {
  // Maybe on zmq's I/O thread: after the frame's hand-over (the hint was written before it)
  // and sendData's reads of the request; the waiter's wake-up before zmq's next hand-over.
  transport::tsan::FreeFunctionScope scope;
  auto* release = static_cast<ReleaseHint*>(hint);
  if (release->pieces.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  Engine* engine = release->engine;
  Request* request = release->request;
  transport::tsan::acquire(request);
  delete release;
  // A frame released only because the world is going down (its sockets or rings closing
  // after an abort): the waiter has already left with the error, and a blocking send's
  // request lived on its stack. Touch nothing.
  if (engine->abortedFlag_.load(std::memory_order_acquire)) return;
  setStatus(request->status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
  engine->complete(*request);
}

void Engine::bulkSent(Request& request) {
  // As releaseZeroCopy: after an abort the waiter has left (the request may be gone).
  if (abortedFlag_.load(std::memory_order_acquire)) return;
  setStatus(request.status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
  complete(request);
}

void Engine::sendData(Request& request, uint64_t recvId, bool inPieces) {
  const Datatype& type = *request.type;
  const uint64_t bytes = static_cast<uint64_t>(request.count) * type.size();
  char* data = request.packed.empty() ? static_cast<char*>(request.buffer) + type.trueLb() : request.packed.data();
  Envelope envelope;
  envelope.context = request.context;
  envelope.senderWorld = worldRank_;
  envelope.sendId = request.id;
  envelope.recvId = recvId;
  envelope.totalBytes = bytes;
  // The payload is sent from the user's (or the packed) buffer without a copy; the
  // request completes when zmq has released every piece of it, i.e. once the bytes are
  // on their way. Once the first piece is handed over the request may complete and be
  // freed at any time: nothing reads it after that (the peer and the pointer are read first).
  const int peer = request.peerWorld;
  // Over a plain data connection where the fabric has one: written from `data` by the
  // kernel straight into the receiver's socket, read by it straight into its buffer.
  if (fabric_.sendBulk(peer, makeHeader(MessageKind::Data, jobHash_, envelope, bytes), data, bytes,
                       [this, &request] { bulkSent(request); })) {
    return;
  }
  const uint64_t piece = inPieces ? fabric_.dataPieceBytes(peer) : 0;
  const uint64_t pieces = piece > 0 && bytes > piece ? (bytes + piece - 1) / piece : 1;
  auto* release = new ReleaseHint{this, &request, pieces};
  transport::tsan::release(&request);
  uint64_t n = 0;
  do {  // at least once: the hint is owned by the pieces
    envelope.offset = n * piece;
    const uint64_t length = pieces == 1 ? bytes : std::min(piece, bytes - envelope.offset);
    zmq::message_t payload(data + envelope.offset, length, &Engine::releaseZeroCopy, release);
    fabric_.send(peer, makeHeader(MessageKind::Data, jobHash_, envelope, length), std::move(payload));
  } while (++n < pieces);
}

bool Engine::readDirect(Request& request, const Envelope& envelope) {
  const int pid = fabric_.singleCopyPid(envelope.senderWorld);
  if (pid == 0) return false;
  const uint64_t capacity = request.bytes();
  const uint64_t stored = std::min(envelope.totalBytes, capacity);
  // A contiguous receive takes the bytes in place; another type through one buffer, then
  // unpacked (still a copy fewer than through the rings).
  std::vector<char> staging;
  void* target = static_cast<char*>(request.buffer) + request.type->trueLb();
  if (!request.type->contiguous()) {
    staging.resize(stored);
    target = staging.data();
  }
  if (!transport::readProcessMemory(pid, envelope.offset, target, static_cast<std::size_t>(stored))) {
    // Refused (permissions, a container's seccomp profile): this peer's messages take the
    // rings from now on; this one too (nothing of it was stored that the data will not
    // overwrite).
    fabric_.singleCopyRefused(envelope.senderWorld, errno);
    return false;
  }
  Envelope done;
  done.senderWorld = worldRank_;
  done.sendId = envelope.sendId;
  reply(MessageKind::ReadDone, envelope.senderWorld, done);
  if (!staging.empty()) {
    unpackInto(request, staging.data(), envelope.totalBytes, envelope);  // stores `stored` bytes
  } else {
    setStatus(request.status, envelope.source, envelope.tag, stored,
              envelope.totalBytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
  }
  complete(request);
  return true;
}

void Engine::receiveData(Request& request, transport::WireMessage& wire, const Envelope& envelope) {
  const uint64_t capacity = request.bytes();
  const uint64_t length = wire.header.payloadBytes;
  const bool whole = envelope.offset == 0 && length == envelope.totalBytes;
  if (whole && !wire.placed) {
    Envelope matched = envelope;
    matched.source = request.status.MPI_SOURCE;
    matched.tag = request.status.MPI_TAG;
    unpackInto(request, wire.data(), wire.size(), matched);
  } else if (!wire.placed && envelope.offset < capacity) {
    // A piece (only ever for a contiguous receive: the Cts said so): copied to its place;
    // what lies past the end of the buffer is dropped, and the status says so below.
    const uint64_t stored = std::min(length, capacity - envelope.offset);
    std::memcpy(static_cast<char*>(request.buffer) + request.type->trueLb() + envelope.offset, wire.data(), stored);
  }
  if (!whole) {
    // Pieces may be stored by more than one thread at a time; the one storing the last
    // byte completes the receive.
    std::lock_guard lock(mutex_);
    auto it = awaitingData_.find(envelope.recvId);
    // Gone: another thread stored the last byte, and this piece repeats one (a hostile or
    // broken peer); the receive is complete already.
    if (it == awaitingData_.end()) return;
    it->second.arrived += length;
    if (it->second.arrived < envelope.totalBytes) return;
    awaitingData_.erase(it);
  }
  if (wire.placed || !whole) {
    const uint64_t stored = std::min(envelope.totalBytes, capacity);
    setStatus(request.status, request.status.MPI_SOURCE, request.status.MPI_TAG, stored,
              envelope.totalBytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
  }
  complete(request);
}

void Engine::reply(MessageKind kind, int toWorld, const Envelope& envelope) {
  const transport::WireHeader header = makeHeader(kind, jobHash_, envelope, 0);
  // A Cts on the bulk connection reaches the sender's bulk I/O thread, which starts
  // writing the data at once, without zmq's I/O threads and progress thread in between.
  if (kind == MessageKind::Cts && fabric_.sendBulk(toWorld, header, nullptr, 0, {})) return;
  fabric_.send(toWorld, header, zmq::message_t());
}

void Engine::returnCredit(int senderWorld) {
  uint64_t total = 0;
  {
    std::lock_guard match(matchMutex_);
    total = flow_.publishPending(senderWorld);
  }
  if (total == 0) return;  // published in shared memory, or by another thread already
  Envelope envelope;
  envelope.senderWorld = worldRank_;
  envelope.totalBytes = total;
  fabric_.send(senderWorld, makeHeader(MessageKind::Credit, jobHash_, envelope, 0), zmq::message_t());
}

// ------------------------------------------------------------------------- receives

void Engine::startRecv(Request& request) {
  if (abortedFlag_.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  request.id = nextId_.fetch_add(1, std::memory_order_relaxed);
  std::unique_ptr<IncomingMessage> message;
  bool creditDue = false;
  {
    std::lock_guard match(matchMutex_);
    for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
      if (matches(request, (*it)->envelope)) {
        message = std::move(*it);
        unexpected_.erase(it);
        break;
      }
    }
    if (!message) {
      posted_.push(request);
      return;
    }
    creditDue = noteConsumed(message->envelope, message->payload.size());
  }
  if (creditDue) returnCredit(message->envelope.senderWorld);
  deliver(request, *message);
}

void Engine::startMatchedRecv(Request& request, std::unique_ptr<IncomingMessage> message) {
  {
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  request.id = nextId_.fetch_add(1, std::memory_order_relaxed);
  deliver(request, *message);
}

void Engine::unpackInto(Request& request, const void* data, uint64_t bytes, const Envelope& envelope) {
  const uint64_t capacity = request.bytes();
  const uint64_t stored = std::min(bytes, capacity);
  if (stored > 0) {
    // A contiguous type's copy inline (as Datatype::unpack makes it): every small receive.
    if (request.type->contiguous()) {
      transport::copySmall(request.buffer, data, static_cast<std::size_t>(stored));
    } else {
      request.type->unpack(data, static_cast<std::size_t>(stored), request.buffer);
    }
  }
  setStatus(request.status, envelope.source, envelope.tag, stored, bytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
}

void* Engine::placeData(const transport::WireHeader& header) {
  if (header.kind != static_cast<uint16_t>(MessageKind::Data) || header.payloadBytes == 0) return nullptr;
  const Envelope envelope = envelopeOf(header);
  std::lock_guard lock(mutex_);
  auto it = awaitingData_.find(envelope.recvId);
  if (it == awaitingData_.end()) return nullptr;
  const Request& request = *it->second.request;
  // Only from the rank whose RTS the receive matched, and only what fits: a truncated
  // message takes the general path, which reports it.
  if (request.peerWorld != envelope.senderWorld || !request.type->contiguous()) return nullptr;
  if (header.payloadBytes > request.bytes()) return nullptr;
  return static_cast<char*>(request.buffer) + request.type->trueLb();
}

void Engine::deliver(Request& request, IncomingMessage& message) {
  deliver(request, message.kind, message.envelope, message.payload.data(), message.payload.size());
}

void Engine::deliver(Request& request, MessageKind kind, const Envelope& envelope, const void* payload,
                     uint64_t bytes) {
  if (kind == MessageKind::Rts) {
    // Sent so for want of eager credit: its sender gets what we hold back at once (no lock
    // is held here), rather than at the next quarter window.
    if (envelope.recvId == kStarvedRts) returnCredit(envelope.senderWorld);
    // The data must come from there. Written only for an MPI_ANY_SOURCE receive (a named
    // source's is set when the receive is made): a waiting thread reads it (spinsFor).
    if (request.peerWorld != envelope.senderWorld) request.peerWorld = envelope.senderWorld;
    setStatus(request.status, envelope.source, envelope.tag, 0, MPI_SUCCESS);
    request.status._ucount = envelope.totalBytes;  // until the data arrives: the size to expect
    if (envelope.offset != 0 && readDirect(request, envelope)) return;
    Envelope cts;
    cts.context = envelope.context;
    cts.senderWorld = worldRank_;
    cts.sendId = envelope.sendId;
    cts.recvId = request.id;
    // A contiguous buffer takes the data in pieces, each copied straight to its place.
    cts.offset = request.type->contiguous() ? 1 : 0;
    {
      // After this the data may arrive (on the progress thread) and complete -- and free
      // -- the request at any time: it is not touched again here.
      std::lock_guard lock(mutex_);
      awaitingData_[cts.recvId] = AwaitedData{&request};
    }
    reply(MessageKind::Cts, envelope.senderWorld, cts);
    return;
  }
  unpackInto(request, payload, bytes, envelope);
  if (kind == MessageKind::EagerSync) {
    Envelope ack;
    ack.senderWorld = worldRank_;
    ack.sendId = envelope.sendId;
    reply(MessageKind::SyncAck, envelope.senderWorld, ack);
  }
  complete(request);
}

bool Engine::cancel(Request& request) {
  {
    std::lock_guard match(matchMutex_);
    if (!posted_.remove(request)) return false;
    setStatus(request.status, request.peer, request.tag, 0, MPI_SUCCESS);
    request.status._cancelled = 1;
    request.cancelled = true;
  }
  complete(request);
  return true;
}

// ----------------------------------------------------------------------- completion

void Engine::complete(Request& request) {
  // onComplete runs before `done` is published: once a waiter sees done it may free the
  // request at once.
  if (request.onComplete) request.onComplete(request);
  if (kLockFreeCompletion && request.transient) {
    // Nobody can have freed it. Publish, then look for sleepers (Dekker with the count in
    // wait()/waitUntil(): either they see done before sleeping, or we see them and wake
    // them the usual way). The request is not touched after the store.
    request.done.store(true, std::memory_order_release);
#if !defined(__SANITIZE_THREAD__)
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
    if (sleepers_.load(std::memory_order_relaxed) == 0 && !anotherThreadReceives()) return;
    std::lock_guard lock(mutex_);
    ++epoch_;
    wakeWaiters();
    return;
  }
  bool destroy = false;
  {
    std::lock_guard lock(mutex_);
    // Read `freed` first: once `done` is published a waiter may delete the request.
    destroy = request.freed;
    ++epoch_;
    request.done.store(true, std::memory_order_release);
    // Under the lock: a waiter that saw `done` may destroy this engine once it is released
    // (~Engine takes it first). TSan found the wake-up after the unlock racing with ~Engine.
    wakeWaiters();
  }
  if (destroy) delete &request;
}

void Engine::freeRequest(Request& request) {
  bool destroy = false;
  {
    std::lock_guard lock(mutex_);
    if (request.done.load() || (request.persistent && !request.active)) {
      destroy = true;
    } else {
      request.freed = true;
    }
  }
  if (destroy) delete &request;
}

std::chrono::microseconds Engine::spinAllowance(uint64_t transferBytes) const {
  // Two copies through the rings, pipelined, move a few GB/s here (4 MiB ping-pong 14-19
  // GB/s idle): 2 GB/s leaves room for a slower host, and the cap bounds a spin beside a
  // peer that is not moving at all (it yields at every round anyway).
  constexpr uint64_t kBytesPerMicrosecond = 2000;
  constexpr std::chrono::microseconds kMostForTransfer{2000};
  return spinTime_ + std::min(kMostForTransfer, std::chrono::microseconds(transferBytes / kBytesPerMicrosecond));
}

bool Engine::spinUntil(transport::FunctionRef<bool()> ready, uint64_t transferBytes) {
  if (ready()) return true;  // without registering: nothing to wait for
  if (spinTime_.count() <= 0) return false;
  const auto spinTime = spinAllowance(transferBytes);
  // While we spin, the progress thread leaves the shared-memory rings to us (see
  // World::progressLoop): one polling thread per rank, not two competing for two cores.
  polling_.beginSpin();
  auto deliver = [this](transport::WireMessage&& message) { onMessage(std::move(message)); };
  auto deliverCompact = [this](const transport::CompactMessage& message) { onCompact(message); };
  // The clock is read first at the first yield, not here: most waits end before it (a
  // reading is ~50 ns on a VM). The spin lasts spinTime_ plus one round of polls.
  std::chrono::steady_clock::time_point deadline{};
  std::chrono::steady_clock::time_point lastYield{};
  bool done = false;
  for (unsigned idle = 0;;) {
    if (ready()) {
      done = true;
      break;
    }
    if (fabric_.pollFast(deliver, deliverCompact) > 0) continue;
    // Poll hot (a reply is usually a few hundred nanoseconds away), then look at the
    // clock and give the core away: a peer we wait for, or our own progress thread, may
    // need it -- without yields, two ranks the scheduler put on one CPU took turns only
    // when a spin timed out (28-90 us per round trip).
    if (++idle % pollsPerYield_ != 0) {
      cpuRelax();
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (deadline == std::chrono::steady_clock::time_point{}) {
      deadline = now + spinTime;
    } else {
      if (watchContention_.load(std::memory_order_relaxed) && contention_.suspicious(lastYield, now)) {
        measuredYieldsLeft_.store(kMeasuredYields, std::memory_order_relaxed);
      }
      if (now >= deadline) break;
    }
    lastYield = now;
    if (measuredYieldsLeft_.load(std::memory_order_relaxed) > 0) {
      measuredYield();
    } else {
      std::this_thread::yield();
    }
  }
  polling_.endSpin();
  if (done) return true;  // the registration lingers (see PollRegistration)
  // We are about to block. A sender that wrote while we polled rang no doorbell, and the
  // progress thread may be asleep. Having dropped the registration, one more look
  // suffices: later writers see no poller and ring the doorbell.
  prepareToBlock();
  return ready();
}

namespace {
// ZMPI_YIELD_WHEN_IDLE=0/1 if set, else `chosen`: whether spins give the CPU away at every look.
bool yieldWhenIdleOr(bool chosen) { return settingIfSet(kYieldWhenIdleSetting).value_or(chosen); }
}  // namespace

void Engine::setSpinPolicy(bool yieldWhenIdle, bool bound, bool fastPeers, bool threadedPeers) {
  yieldWhenIdle = yieldWhenIdleOr(yieldWhenIdle);
  pollsPerYield_.store(yieldWhenIdle ? 1
                       : bound       ? kPollsPerYieldBound
                                     : kPollsPerYieldUnbound,
                       std::memory_order_relaxed);
  const bool spinNamed = settingIfSet(kSpinSetting).has_value();
  if (!fastPeers && !spinNamed) spinTime_ = std::chrono::microseconds(0);
  // A mixed rank (3 ranks, two claiming one host by ZMPI_HOST; 8 B over tcp beside two busy
  // loops): 1.7-13 ms a message with every wait spinning, 28-58 us with only same-host ones.
  spinEveryPeer_ = spinNamed || !threadedPeers;
}

void Engine::setOversubscribed(bool oversubscribed) {
  bulkLooksPerYield_ = yieldWhenIdleOr(oversubscribed) ? 1 : kBulkLooksPerYield;
  if (oversubscribed && !settingIfSet(kSpinSetting)) spinTime_ = kOversubscribedSpin;
}

void Engine::watchCoreContention(ContentionWatch::Settings settings) {
  contention_ = ContentionWatch(settings);
  watchContention_.store(true, std::memory_order_relaxed);
}

namespace {
std::chrono::nanoseconds processCpuTime() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}
}  // namespace

void Engine::measuredYield() {
  measuredYieldsLeft_.fetch_sub(1, std::memory_order_relaxed);
  const auto cpuBefore = processCpuTime();
  const auto before = std::chrono::steady_clock::now();
  std::this_thread::yield();
  const auto after = std::chrono::steady_clock::now();
  const auto cpu = processCpuTime() - cpuBefore;
  const auto wall = after - before;
  {
    std::lock_guard lock(contentionMutex_);
    if (!contention_.probed(after, wall, cpu)) return;
  }
  watchContention_.store(false, std::memory_order_relaxed);
  measuredYieldsLeft_.store(0, std::memory_order_relaxed);
  if (!unbindFromCpus()) return;
  if (pollsPerYield_.load(std::memory_order_relaxed) == kPollsPerYieldBound) {
    pollsPerYield_.store(kPollsPerYieldUnbound, std::memory_order_relaxed);
  }
  log::get("mpi")->info(
      "rank {}: another process keeps taking this rank's CPU (a yield took {} us, {} us of it "
      "ours); no longer bound to it",
      worldRank_, std::chrono::duration_cast<std::chrono::microseconds>(wall).count(),
      std::chrono::duration_cast<std::chrono::microseconds>(cpu).count());
}

void Engine::prepareToBlock() {
  if (polling_.dropIfIdle() && fabric_.hasFastData()) fabric_.wake();
  if (waitersReceive_) lease_.handBack();
  if (waitersReadBulk_) fabric_.releaseBulk();
}

void Engine::setSleepOnRings(bool on) { sleepOnRings_ = on && experiment(kSleepOnRingsExperiment); }

bool Engine::sleepOnRings(transport::FunctionRef<bool()> ready) {
  if (!sleepOnRings_) return false;
  // How long a sleep lasts at most before the thread looks at the job (an abort wakes it
  // anyway) and the rings.
  constexpr std::chrono::milliseconds kSlice{50};
  // A registration left lingering by an earlier spin would keep senders from waking us.
  polling_.dropIfIdle();
  // While awake we count as a poller (senders skip the bell and the doorbell: we look),
  // while asleep as a sleeper (they ring our bell); always one of the two, so no sender
  // wakes the progress thread meanwhile.
  RingPoller poller(fabric_);
  for (;;) {
    {
      // Counted for local completions too (complete() on the progress thread: a message
      // to self, from the launcher) -- they ring the same bell (wakeWaiters).
      const SleeperCount counted(sleepers_);
      const RingSleeper sleeping(fabric_);
      poller.leave();
      std::atomic_thread_fence(std::memory_order_seq_cst);  // the counts before the checks
      const bool awake = ready() || abortedFlag_.load(std::memory_order_acquire) || fabric_.hasFastData();
      if (!awake) fabric_.ringSleep(kSlice);
      poller.enter();  // before we stop counting as a sleeper
    }
    if (ready() || abortedFlag_.load(std::memory_order_acquire)) break;
    // Nothing delivered: another thread is draining (its data counts as there until it has
    // read it) or the wake-up was not for us; leave it the core before looking again.
    if (pollRings() == 0) std::this_thread::yield();
  }
  poller.leave();
  // A sender that wrote while we polled woke nobody: what it wrote is ours to deliver.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (fabric_.hasFastData()) pollRings();
  return true;
}

void Engine::setWaitersReceive(bool on) { waitersReceive_ = on && experiment(kReceiveInWaitExperiment); }

std::size_t Engine::pollRings() {
  return fabric_.pollFast([this](transport::WireMessage&& message) { onMessage(std::move(message)); },
                          [this](const transport::CompactMessage& message) { onCompact(message); });
}

std::size_t Engine::pollOnce() {
  std::size_t delivered = pollRings();
  // Nobody receives from the inbox right now (the lease lingers after a wait): a loop of
  // tests must not wait for the progress thread to take it back.
  if (waitersReceive_ && lease_.tryTake()) {
    // Bounded: a test returns even while messages keep coming.
    constexpr std::size_t kMostPerPoll = 64;
    while (delivered < kMostPerPoll && receiveOne(std::chrono::milliseconds(0))) ++delivered;
    lease_.release(false);
  }
  // Likewise the bulk connections, if no waiting thread reads them: one look.
  if (waitersReadBulk_ && !bulkReading_.exchange(true, std::memory_order_acq_rel)) {
    bulkReader_.store(std::this_thread::get_id());
    delivered += fabric_.readBulkInWait(std::chrono::milliseconds(0)) ? 1 : 0;
    bulkReader_.store(std::thread::id());
    bulkReading_.store(false, std::memory_order_release);
  }
  return delivered;
}

bool Engine::readBulkUntil(transport::FunctionRef<bool()> ready) {
  if (bulkReading_.exchange(true, std::memory_order_seq_cst)) return false;
  bulkReader_.store(std::this_thread::get_id());
  // Dekker with the completions on other threads (complete(), wakeWaiters()): they
  // publish, then look for a reader; we announce ourselves, then look at what they publish.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // Spin (one look at a time, yielding between looks that bring nothing) while traffic is
  // near, as the bulk I/O thread does after a frame; then poll in slices, after which the
  // loop looks whether the job is ending.
  auto lastTraffic = std::chrono::steady_clock::now();
  unsigned empty = 0;
  while (!ready() && !abortedFlag_.load(std::memory_order_acquire)) {
    const bool spin = std::chrono::steady_clock::now() - lastTraffic < bulkSpin_;
    if (fabric_.readBulkInWait(spin ? std::chrono::milliseconds(0) : receiveRecheck_)) {
      lastTraffic = std::chrono::steady_clock::now();
    } else if (spin && ++empty % bulkLooksPerYield_ == 0) {
      std::this_thread::yield();
    }
  }
  bulkReader_.store(std::thread::id());
  bulkReading_.store(false, std::memory_order_seq_cst);
  // Others asleep on progress_ need a reading thread now, not after the linger.
  if (sleepers_.load(std::memory_order_relaxed) > 0) fabric_.releaseBulk();
  return true;
}

void Engine::wakeBulkReader() {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // see readBulkUntil
  if (bulkReading_.load(std::memory_order_relaxed) && bulkReader_.load() != std::this_thread::get_id()) {
    fabric_.wakeBulkReader();
  }
}

bool Engine::receiveOne(std::chrono::milliseconds timeout) {
  try {
    auto message = fabric_.receive(timeout);
    if (!message) return false;
    onMessage(std::move(*message));
    return true;
  } catch (const MpiError&) {
    throw;  // the program's error (through its handler), not the transport's
  } catch (const std::exception& error) {
    // What ends the progress thread ends the world (World::progressLoop) wherever it happens.
    log::get("mpi")->error("progress: {}", error.what());
    abort(error.what());
    return false;
  }
}

bool Engine::receiveUntil(transport::FunctionRef<bool()> ready) {
  if (!waitersReceive_) return false;
  const auto self = std::this_thread::get_id();
  const bool nested = receiverWaiting_.load(std::memory_order_acquire) && receiver_.load() == self;
  if (!nested) {
    if (!lease_.takeForWait([this] { fabric_.wake(); })) return false;
    receiver_.store(self);
    // Dekker with the completions (complete(), wakeWaiters()): they publish, then look for
    // a receiver; we announce ourselves, then look at what they publish.
    receiverWaiting_.store(true, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  struct GiveBack {
    Engine& engine;
    bool nested;
    ~GiveBack() {
      if (nested) return;
      engine.receiverWaiting_.store(false, std::memory_order_seq_cst);
      // Others asleep on progress_ need a receiving thread now, not after the linger.
      engine.lease_.release(engine.sleepers_.load(std::memory_order_relaxed) > 0);
    }
  } giveBack{*this, nested};
  while (!ready() && !abortedFlag_.load(std::memory_order_acquire)) receiveOne(receiveRecheck_);
  return true;
}

bool Engine::anotherThreadReceives() const {
  const auto self = std::this_thread::get_id();
  return (receiverWaiting_.load(std::memory_order_relaxed) && receiver_.load() != self) ||
         (bulkReading_.load(std::memory_order_relaxed) && bulkReader_.load() != self);
}

void Engine::wakeReceiver() {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // see receiveUntil
  if (anotherThreadReceives()) fabric_.wake();
}

void Engine::wakeWaiters() {
  progress_.notify_all();
  if (sleepOnRings_) fabric_.wakeRingSleepers();
  if (waitersReceive_) wakeReceiver();
  if (waitersReadBulk_) wakeBulkReader();
}

int Engine::waitedPeer(const Request& request) {
  // An MPI_ANY_SOURCE receive learns its sender on another thread (deliver): not read here.
  return request.kind == Request::Kind::Recv && request.peer == MPI_ANY_SOURCE ? -1 : request.peerWorld;
}

void Engine::wait(Request& request) {
  if (request.done.load(std::memory_order_acquire)) return;
  // Spin briefly, draining the shared-memory rings ourselves: a reply that arrives within
  // microseconds completes the request on this thread, with no hand-off and no system
  // call. Then block on the condition variable; the progress thread carries on -- or,
  // where waiters receive, receive on this thread.
  if (spinsFor(waitedPeer(request)) &&
      spinUntil([&] { return request.done.load(std::memory_order_acquire); }, request.bytes())) {
    return;
  }
  Watchdog::Watch watch(watchdog_.get());
  watch.arm([&] { return describeWait(request); });
  if (sleepOnRings([&] { return request.done.load(std::memory_order_acquire); })) {
    if (request.done.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  if (waitersReadBulk_ && readBulkUntil([&] { return request.done.load(std::memory_order_acquire); })) {
    if (request.done.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  const bool inboxTraffic = request.type == nullptr || travelsThroughInbox(waitedPeer(request), request.bytes());
  if (inboxTraffic && receiveUntil([&] { return request.done.load(std::memory_order_acquire); })) {
    if (request.done.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  prepareToBlock();
  const SleeperCount sleeping(sleepers_);
  std::unique_lock lock(mutex_);
  progress_.wait(lock, [&] { return request.done.load(std::memory_order_acquire) || aborted_; });
  if (!request.done.load()) throwIfAborted();
}

void Engine::waitUntil(const std::function<bool()>& ready, bool spin, bool inboxTraffic, uint64_t transferBytes) {
  {
    std::lock_guard lock(mutex_);
    throwIfAborted();
  }
  if (spin ? spinUntil(ready, transferBytes) : ready()) return;
  Watchdog::Watch watch(watchdog_.get());
  watch.arm([] { return describeWait(); });
  if (sleepOnRings([&] { return ready(); })) {
    std::lock_guard lock(mutex_);
    throwIfAborted();
    return;
  }
  if (waitersReadBulk_ && readBulkUntil([&] { return ready(); })) {
    std::lock_guard lock(mutex_);
    throwIfAborted();
    return;
  }
  if (inboxTraffic && receiveUntil([&] { return ready(); })) {
    std::lock_guard lock(mutex_);
    throwIfAborted();
    return;
  }
  prepareToBlock();
  // `ready` runs without the lock (it may start operations); the epoch tells whether
  // anything completed between its check and the wait, so no wakeup is ever missed.
  const SleeperCount sleeping(sleepers_);  // before `ready` is checked (see complete())
  for (;;) {
    uint64_t seen;
    {
      std::lock_guard lock(mutex_);
      throwIfAborted();
      seen = epoch_;
    }
    if (ready()) return;
    watch.arm([] { return describeWait(); });
    std::unique_lock lock(mutex_);
    progress_.wait(lock, [&] { return epoch_ != seen || aborted_; });
  }
}

void Engine::notifyProgress() {
  {
    std::lock_guard lock(mutex_);
    ++epoch_;  // waitUntil() re-checks its condition on every epoch change
  }
  wakeWaiters();
}

void Engine::abort(const std::string& reason) {
  {
    std::lock_guard lock(mutex_);
    if (aborted_) return;
    aborted_ = true;
    abortReason_ = reason;
    abortedFlag_.store(true, std::memory_order_release);
  }
  wakeWaiters();
}

// --------------------------------------------------------------------------- probes

void Engine::fillProbeStatus(const IncomingMessage& message, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  setStatus(*status, message.envelope.source, message.envelope.tag, message.bytes(), MPI_SUCCESS);
}

bool Engine::iprobe(int context, int source, int tag, MPI_Status* status) {
  pollOnce();  // a polling loop of iprobes must see what sits in the rings
  std::lock_guard lock(mutex_);
  throwIfAborted();
  std::lock_guard match(matchMutex_);
  const IncomingMessage* message = findUnexpected(context, source, tag);
  if (message) fillProbeStatus(*message, status);
  return message != nullptr;
}

const IncomingMessage* Engine::findUnexpected(int context, int source, int tag) const {
  for (const auto& message : unexpected_) {
    if (probeMatches(context, source, tag, message->envelope)) return message.get();
  }
  return nullptr;
}

void Engine::spinForUnexpected(int context, int source, int tag, int sourceWorld) {
  // Spin on the rings first, as wait() does; then receive here or block (the progress
  // thread takes over), as wait() does.
  auto queued = [&] {
    if (abortedFlag_.load(std::memory_order_acquire)) return true;
    std::lock_guard match(matchMutex_);
    return findUnexpected(context, source, tag) != nullptr;
  };
  if (spinsFor(sourceWorld) && spinUntil(queued)) return;
  if (sleepOnRings(queued)) return;
  if (fabric_.smallMessagesOnInbox(sourceWorld) && receiveUntil(queued)) return;
  prepareToBlock();
}

void Engine::probe(int context, int source, int tag, MPI_Status* status, int sourceWorld) {
  Watchdog::Watch watch(watchdog_.get());
  watch.arm([&] { return describeProbe(source, tag); });  // before our lock: it looks up the communicator
  spinForUnexpected(context, source, tag, sourceWorld);
  std::unique_lock lock(mutex_);
  for (;;) {
    throwIfAborted();
    {
      std::lock_guard match(matchMutex_);
      if (const IncomingMessage* message = findUnexpected(context, source, tag)) {
        fillProbeStatus(*message, status);
        return;
      }
    }
    // An arrival pushed after our look takes mutex_ before it notifies (onMessage), so
    // the notification cannot fall between the look and the wait.
    progress_.wait(lock);
  }
}

std::unique_ptr<IncomingMessage> Engine::takeUnexpected(int context, int source, int tag, MPI_Status* status,
                                                        bool& creditDue) {
  std::lock_guard match(matchMutex_);
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (probeMatches(context, source, tag, (*it)->envelope)) {
      fillProbeStatus(**it, status);
      auto message = std::move(*it);
      unexpected_.erase(it);
      // Taken, it is the program's to receive: the sender may send more in its place.
      creditDue = noteConsumed(message->envelope, message->payload.size());
      return message;
    }
  }
  return nullptr;
}

std::unique_ptr<IncomingMessage> Engine::improbe(int context, int source, int tag, MPI_Status* status) {
  pollOnce();
  bool creditDue = false;
  std::unique_ptr<IncomingMessage> message;
  {
    std::lock_guard lock(mutex_);
    throwIfAborted();
    message = takeUnexpected(context, source, tag, status, creditDue);
  }
  if (creditDue) returnCredit(message->envelope.senderWorld);
  return message;
}

std::unique_ptr<IncomingMessage> Engine::mprobe(int context, int source, int tag, MPI_Status* status, int sourceWorld) {
  Watchdog::Watch watch(watchdog_.get());
  watch.arm([&] { return describeProbe(source, tag); });  // before our lock: it looks up the communicator
  spinForUnexpected(context, source, tag, sourceWorld);
  std::unique_lock lock(mutex_);
  for (;;) {
    throwIfAborted();
    bool creditDue = false;
    if (auto message = takeUnexpected(context, source, tag, status, creditDue)) {
      lock.unlock();
      if (creditDue) returnCredit(message->envelope.senderWorld);
      return message;
    }
    progress_.wait(lock);
  }
}

std::size_t Engine::unexpectedCount() {
  std::lock_guard match(matchMutex_);
  return unexpected_.size();
}

uint64_t Engine::unexpectedBytes() {
  std::lock_guard match(matchMutex_);
  uint64_t bytes = 0;
  for (const auto& message : unexpected_) bytes += message->payload.size();
  return bytes;
}

// ------------------------------------------------------------------ incoming traffic

void Engine::setActiveMessageHandler(uint16_t kind, ActiveMessageHandler handler) {
  if (kind < kFirstActiveMessageKind) fail(MPI_ERR_INTERN, "active message kinds start at 16");
  std::lock_guard lock(mutex_);
  if (handler) {
    activeHandlers_[kind] = std::move(handler);
  } else {
    activeHandlers_.erase(kind);
  }
}

void Engine::sendActiveMessage(int worldRank, uint16_t kind, const Envelope& envelope, zmq::message_t&& payload) {
  transport::WireHeader header = makeHeader(MessageKind::Eager, jobHash_, envelope, payload.size());
  header.kind = kind;
  fabric_.send(worldRank, header, std::move(payload));
}

void Engine::onCompact(const transport::CompactMessage& message) {
  // Only eager sends travel compact (sendEagerNow); anything else takes the general path.
  if (message.kind != static_cast<uint16_t>(MessageKind::Eager)) [[unlikely]] {
    onMessage(transport::wireMessageOf(message, jobHash_));
    return;
  }
  observeHandlerWrites();  // as onMessage does
  Envelope envelope{};     // its second half travels as zeros
  std::memcpy(static_cast<void*>(&envelope), message.envelope, transport::kCompactEnvelopeBytes);
  arrive(MessageKind::Eager, envelope, message.payload, message.bytes,
         [&] { return transport::PayloadPool::copyOf(message.payload, message.bytes); });
}

void Engine::arrive(MessageKind kind, const Envelope& envelope, const void* payload, uint64_t bytes,
                    transport::FunctionRef<zmq::message_t()> keep) {
  // Matched: delivered from where it lies. Only a message nobody waits for yet needs a home
  // of its own (and a payload lent by the fabric is copied for it).
  Request* request = nullptr;
  bool creditDue = false;
  {
    std::lock_guard match(matchMutex_);
    request = posted_.takeFirst([&](const Request& posted) { return matches(posted, envelope); });
    if (request) {
      creditDue = noteConsumed(envelope, bytes);  // an Rts has no payload
    } else {
      unexpected_.push_back(std::make_unique<IncomingMessage>(IncomingMessage{kind, envelope, keep()}));
    }
  }
  if (request) {
    if (creditDue) [[unlikely]]
      returnCredit(envelope.senderWorld);
    deliver(*request, kind, envelope, payload, bytes);
    return;
  }
  {
    // Probes wait for unexpected arrivals: they look under mutex_ before they sleep.
    std::lock_guard lock(mutex_);
    ++epoch_;
  }
  wakeWaiters();
}

void Engine::onMessage(transport::WireMessage&& wire) {
  observeHandlerWrites();
  if (wire.header.kind >= kFirstActiveMessageKind) {
    ActiveMessageHandler handler;
    {
      std::lock_guard lock(mutex_);
      auto it = activeHandlers_.find(wire.header.kind);
      if (it != activeHandlers_.end()) handler = it->second;
    }
    if (handler) {
      wire.own();  // handlers may keep what they are given
      handler(std::move(wire));
      handlerWrites_.fetch_add(1, std::memory_order_release);
    } else {
      log::get("mpi")->warn("dropped an active message of unknown kind {}", wire.header.kind);
    }
    return;
  }
  const auto kind = static_cast<MessageKind>(wire.header.kind);
  const Envelope envelope = envelopeOf(wire.header);
  switch (kind) {
    case MessageKind::Doorbell:
      return;  // a wake-up only; the fabric normally swallows it
    case MessageKind::Credit:
      flow_.granted(envelope.senderWorld, envelope.totalBytes);
      return;
    case MessageKind::Eager:
    case MessageKind::EagerSync:
    case MessageKind::Rts:
      arrive(kind, envelope, wire.data(), wire.size(), [&] {
        wire.own();
        return std::move(wire.payload);
      });
      return;
    case MessageKind::Cts:
    case MessageKind::ReadDone:
    case MessageKind::SyncAck:
    case MessageKind::Data: {
      Request* request = nullptr;
      {
        std::lock_guard lock(mutex_);
        if (kind == MessageKind::Data) {
          // Left in the table until its last piece is stored (receiveData).
          auto it = awaitingData_.find(envelope.recvId);
          if (it != awaitingData_.end()) {
            request = it->second.request;
            if (envelope.offset == 0 && wire.header.payloadBytes == envelope.totalBytes) awaitingData_.erase(it);
          }
        } else {
          auto& table = kind == MessageKind::SyncAck ? awaitingAck_ : awaitingCts_;
          auto it = table.find(envelope.sendId);
          if (it != table.end()) {
            request = it->second;
            table.erase(it);
          }
        }
      }
      if (!request) {
        log::get("mpi")->warn("dropped a {} message for an unknown request from world rank {}", static_cast<int>(kind),
                              envelope.senderWorld);
        return;
      }
      if (kind == MessageKind::Cts) {
        sendData(*request, envelope.recvId, envelope.offset != 0);
      } else if (kind == MessageKind::SyncAck || kind == MessageKind::ReadDone) {
        setStatus(request->status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, MPI_SUCCESS);
        complete(*request);
      } else {
        receiveData(*request, wire, envelope);
      }
      return;
    }
  }
  log::get("mpi")->warn("dropped a message of unknown kind {} from world rank {}", wire.header.kind,
                        envelope.senderWorld);
}

}  // namespace zmpi::mpi
