#include "mpi/core/zmq_fabric.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "mpi/core/envelope.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/path_setting.h"
#include "mpi/core/traffic_counters.h"
#include "transport/errors.h"
#include "transport/job_files.h"
#include "transport/link_security.h"
#include "transport/log.h"
#include "transport/payload_pool.h"
#include "transport/process_memory.h"

namespace zmpi::mpi {
namespace {

const transport::IntSetting kMaxMessageSetting{
    "ZMPI_MAX_MESSAGE_BYTES",
    static_cast<long long>(transport::kMaxPayloadBytes),
    {1, static_cast<long long>(transport::kMaxPayloadBytes)},
    "bytes",
    transport::Level::Tuning,
    "the largest frame a rank's inbox accepts (zmq refuses larger ones before allocating them)"};
const transport::IntSetting kRingBytesSetting{"ZMPI_SHM_RING_BYTES",
                                              512 * 1024,
                                              {4096, 1LL << 30},
                                              "bytes",
                                              transport::Level::Tuning,
                                              "each same-host pair's shared-memory ring (rounded up to a power "
                                              "of two)"};
const transport::IntSetting kTcpEagerLimitSetting{
    "ZMPI_TCP_EAGER_LIMIT",
    transport::Auto{},
    {0, 1LL << 30},
    "bytes",
    transport::Level::Tuning,
    "ZMPI_EAGER_LIMIT for tcp and ipc peers (default 32768 where a bulk connection carries rendezvous data, "
    "524288 where none does)"};
const transport::IntSetting kTcpPieceSetting{"ZMPI_TCP_PIECE_BYTES",
                                             1024 * 1024,
                                             {0, 1LL << 40},
                                             "bytes",
                                             transport::Level::Tuning,
                                             "where rendezvous payloads go over zmq, the size of its messages (0: "
                                             "whole)"};
const transport::Experiment kSingleCopyExperiment{
    "single-copy", false, "ZMPI_SINGLE_COPY",
    "large same-host messages read by the receiver straight from the sender's buffer (process_vm_readv)"};
const transport::Experiment kBulkSmallExperiment{"bulk-small", true, "ZMPI_BULK_SMALL",
                                                 "eager messages, SyncAck and Credit take the bulk connections too"};
const transport::Experiment kTcpBulkExperiment{
    "tcp-bulk", true, "ZMPI_TCP_BULK",
    "rendezvous messages to tcp and ipc peers of an authenticated, unencrypted job go over a plain TCP "
    "connection per pair"};

transport::SocketOptions dataSocketOptions(const std::shared_ptr<const transport::LinkKeys>& linkKeys, bool server) {
  transport::SocketOptions options;
  options.linkKeys = linkKeys;
  options.linkServer = server;
  // Ordered streams must never drop: no high-water mark on the data path (large
  // messages are flow-controlled by the rendezvous protocol instead).
  options.sendHighWater = 0;
  options.receiveHighWater = 0;
  // zmq refuses a frame larger than this before allocating it (a peer declaring a
  // terabyte is disconnected); no MPI message can be larger than the wire format allows.
  options.maxMessageSize = static_cast<int64_t>(setting(kMaxMessageSetting));
  return options;
}

// A byte count, or nothing when the variable is unset.
std::optional<std::size_t> optionalByteCount(const transport::IntSetting& s) {
  const std::optional<long long> value = settingIfSet(s);
  if (!value) return std::nullopt;
  return static_cast<std::size_t>(*value);
}

// Every message sent, protocol ones too, by the path it took (MPI_T, capi/tools_pvars.cc).
template <typename Path>
void noteSent(Path path, std::size_t bytes) {
  static_assert(static_cast<int>(Path::Tcp) == static_cast<int>(TrafficCounters::Path::Tcp));
  processTraffic.note(static_cast<TrafficCounters::Path>(path), bytes);
}

std::size_t ringBytes() { return static_cast<std::size_t>(setting(kRingBytesSetting)); }

std::string mailboxName(uint64_t jobHash, int rank) { return transport::jobShmPrefix(jobHash) + std::to_string(rank); }

// The kinds MPI matches, whose order per pair the receiver keeps (deliverInOrder).
bool matchable(uint16_t kind) {
  return kind == static_cast<uint16_t>(MessageKind::Eager) || kind == static_cast<uint16_t>(MessageKind::EagerSync) ||
         kind == static_cast<uint16_t>(MessageKind::Rts);
}

// The small kinds that take the bulk connection to an ordered peer (ZMPI_BULK_SMALL): the
// matchable ones and the replies a wait may be waiting for. One-sided messages stay on zmq.
bool takesSmall(const transport::WireHeader& header) {
  switch (static_cast<MessageKind>(header.kind)) {
    case MessageKind::Eager:
    case MessageKind::EagerSync:
      return true;
    case MessageKind::Rts:
    case MessageKind::Cts:
    case MessageKind::SyncAck:
    case MessageKind::Credit:
      return header.payloadBytes == 0;
    default:
      return false;
  }
}

}  // namespace

ZmqFabric::ZmqFabric(uint64_t jobHash, int rank, int size, std::shared_ptr<const transport::LinkKeys> linkKeys)
    : jobHash_(jobHash),
      linkKeys_(std::move(linkKeys)),
      rank_(rank),
      size_(size),
      maxPath_(setting(kTransportSetting)),
      zmqEagerLimit_(optionalByteCount(kTcpEagerLimitSetting)),
      zmqPieceBytes_(static_cast<std::size_t>(setting(kTcpPieceSetting))),
      singleCopy_(experiment(kSingleCopyExperiment)),
      smallOnBulk_(experiment(kBulkSmallExperiment)),
      inbox_(jobHash, dataSocketOptions(linkKeys_, true)) {
  // Only with the job's key (an unauthenticated job gets no unauthenticated side door), and
  // not when the job asked for encryption: the bulk path sends plaintext. On unless
  // ZMPI_TCP_BULK=0: with the Rts on it, it measured ahead of the zmq pieces at 1-4 MiB in
  // the same minutes (bench/CURVE.md, 2026-12-01 12:0x).
  if (size_ > 1 && linkKeys_ && !linkKeys_->encrypt && experiment(kTcpBulkExperiment)) {
    try {
      bulk_ = std::make_unique<transport::BulkLink>(jobHash_, rank_, size_, linkKeys_->bulkKey);
    } catch (const transport::TransportError& error) {
      fail(MPI_ERR_OTHER, std::string("MPI_Init: ") + error.what());
    }
  }
}

ZmqFabric::~ZmqFabric() { ZmqFabric::close(); }  // no virtual dispatch in a destructor

PeerAddress ZmqFabric::bind(const std::string& host, const std::string& bindAddress, const std::string& jobId) {
  myHost_ = host;
  PeerAddress address;
  address.host = host;
  address.pid = getpid();
  address.pidNamespace = transport::pidNamespace();
  pidNamespace_ = address.pidNamespace;
  address.tcpEndpoint = inbox_.bind("tcp://" + bindAddress + ":*");
  if (maxPath_ != "tcp") {
    ipcPath_ = transport::jobIpcPath(jobHash_, rank_);
    try {
      address.ipcEndpoint = inbox_.bind("ipc://" + ipcPath_);
    } catch (const transport::TransportError& error) {
      log::get("mpi")->debug("no ipc endpoint ({}); same-host peers will use tcp", error.what());
      ipcPath_.clear();
    }
  }
  if (bulk_) {
    try {
      address.dataPort = bulk_->listen(bindAddress);
      address.dataHost = bindAddress;
    } catch (const transport::TransportError& error) {
      // A host name or a wildcard bind address: peers cannot be told where to connect.
      log::get("mpi")->debug("no bulk data listener ({}); rendezvous data will take zmq", error.what());
      bulk_.reset();
    }
  }
  if (maxPath_ == "shm" && size_ > 1) {
    try {
      shmInbox_ = std::make_unique<transport::ShmInbox>(mailboxName(jobHash_, rank_), size_, ringBytes(), jobHash_);
      address.shmName = shmInbox_->name();
    } catch (const transport::TransportError& error) {
      log::get("mpi")->warn("no shared-memory mailbox ({}); same-host peers will use ipc", error.what());
    }
  }
  log::get("mpi")->debug("rank {} listens on {} {} {}", rank_, address.tcpEndpoint, address.ipcEndpoint,
                         address.shmName);
  return address;
}

void ZmqFabric::setPeers(std::vector<PeerAddress> peers) {
  std::lock_guard lock(sendersMutex_);
  peers_ = std::move(peers);
  senders_.resize(peers_.size());
  outboxes_.resize(peers_.size());
  readyOutboxes_ = std::make_unique<std::atomic<transport::ShmOutbox*>[]>(peers_.size());
  for (size_t r = 0; r < peers_.size(); ++r) readyOutboxes_[r].store(nullptr);
  paths_.resize(peers_.size());
  auto logger = log::get("mpi");
  for (size_t r = 0; r < peers_.size(); ++r) {
    paths_[r] = choosePath(static_cast<int>(r));
    if (bulk_) {
      const bool overZmq = paths_[r] == Path::Tcp || paths_[r] == Path::Ipc;
      bulk_->setPeer(static_cast<int>(r), overZmq ? peers_[r].dataHost : std::string(), peers_[r].dataPort);
    }
    logger->debug("path to rank {} on host {}: {}", r, peers_[r].host, pathTo(static_cast<int>(r)));
  }
  // Both ends decide from the same table: a rank has a bulk listener iff it published its port.
  ordered_.assign(peers_.size(), 0);
  for (size_t r = 0; r < peers_.size(); ++r) {
    const bool overZmq = paths_[r] == Path::Tcp || paths_[r] == Path::Ipc;
    ordered_[r] = bulk_ && overZmq && peers_[r].dataPort != 0 && !peers_[r].dataHost.empty() ? 1 : 0;
  }
  sendNumber_ = std::make_unique<std::atomic<uint64_t>[]>(peers_.size());
  for (size_t r = 0; r < peers_.size(); ++r) sendNumber_[r].store(0);
  gates_ = std::make_unique<OrderGate[]>(peers_.size());
  readable_ = std::make_unique<std::atomic<bool>[]>(peers_.size());
  for (size_t r = 0; r < peers_.size(); ++r) {
    const PeerAddress& peer = peers_[r];
    readable_[r].store(singleCopy_ && paths_[r] == Path::Shm && peer.pid > 0 && pidNamespace_ != 0 &&
                       peer.pidNamespace == pidNamespace_);
  }
}

int ZmqFabric::singleCopyPid(int worldRank) const {
  const auto r = static_cast<size_t>(worldRank);
  return readable_ && readable_[r].load(std::memory_order_relaxed) ? peers_[r].pid : 0;
}

int ZmqFabric::hostPeerPid(int worldRank) const {
  const auto r = static_cast<size_t>(worldRank);
  const PeerAddress& peer = peers_.at(r);
  const bool sameProcesses =
      paths_[r] == Path::Shm && peer.pid > 0 && pidNamespace_ != 0 && peer.pidNamespace == pidNamespace_;
  return sameProcesses ? peer.pid : 0;
}

void ZmqFabric::singleCopyRefused(int worldRank, int error) {
  if (readable_[static_cast<size_t>(worldRank)].exchange(false, std::memory_order_relaxed)) {
    log::get("mpi")->debug("rank {} refuses direct reads ({}): its large messages take the rings", worldRank,
                           std::strerror(error));
  }
}

transport::WireHeader ZmqFabric::numbered(int worldRank, const transport::WireHeader& header) {
  transport::WireHeader copy = header;
  if (!ordered(worldRank) || !matchable(header.kind)) return copy;
  const uint64_t number = sendNumber_[static_cast<size_t>(worldRank)].fetch_add(1, std::memory_order_relaxed) + 1;
  std::memcpy(copy.envelope.data() + offsetof(Envelope, offset), &number, sizeof number);
  return copy;
}

void ZmqFabric::deliverInOrder(int peer, transport::WireMessage&& message) {
  uint64_t number;
  std::memcpy(&number, message.header.envelope.data() + offsetof(Envelope, offset), sizeof number);
  std::memset(message.header.envelope.data() + offsetof(Envelope, offset), 0, sizeof number);  // the engine's field
  if (number == 0) {
    deliver_(std::move(message));  // unnumbered: cannot come from a peer of this build
    return;
  }
  const auto outcome = gates_[static_cast<size_t>(peer)].pass(number, std::move(message), deliver_);
  if (outcome == OrderGate::Outcome::Repeated) {
    const uint64_t n = implausible_.fetch_add(1) + 1;
    log::get("mpi")->log(log::rejectLevel(n), "rejected message {} from rank {} ({} so far): a repeated number", number,
                         peer, n);
  }
}

uint64_t ZmqFabric::outOfOrderCount() {
  uint64_t early = 0;
  for (size_t r = 0; gates_ && r < peers_.size(); ++r) early += gates_[r].earlyCount();
  return early;
}

void ZmqFabric::attachSameHostPeers() {
  for (size_t r = 0; r < paths_.size(); ++r) {
    if (paths_[r] == Path::Shm) outboxFor(static_cast<int>(r));
  }
}

void ZmqFabric::unlinkMailboxName() {
  if (shmInbox_) shmInbox_->unlinkName();
}

ZmqFabric::Path ZmqFabric::choosePath(int worldRank) const {
  if (worldRank == rank_) return Path::Self;
  const PeerAddress& peer = peers_.at(static_cast<size_t>(worldRank));
  const bool sameHost = peer.host == myHost_;
  if (sameHost && shmInbox_ && !peer.shmName.empty()) return Path::Shm;
  if (sameHost && !ipcPath_.empty() && !peer.ipcEndpoint.empty()) return Path::Ipc;
  return Path::Tcp;
}

std::string ZmqFabric::pathTo(int worldRank) const {
  switch (paths_.at(static_cast<size_t>(worldRank))) {
    case Path::Self:
      return "self";
    case Path::Shm:
      return "shm";
    case Path::Ipc:
      return "ipc";
    case Path::Tcp:
      return "tcp";
  }
  return "?";
}

transport::PeerSender& ZmqFabric::senderFor(int worldRank) {
  std::lock_guard lock(sendersMutex_);
  auto& sender = senders_.at(static_cast<size_t>(worldRank));
  if (!sender) {
    const PeerAddress& peer = peers_[static_cast<size_t>(worldRank)];
    const bool local =
        paths_[static_cast<size_t>(worldRank)] != Path::Tcp && !peer.ipcEndpoint.empty() && !ipcPath_.empty();
    transport::SocketOptions options = dataSocketOptions(linkKeys_, false);
    // A same-host peer's zmq socket carries nothing but doorbells (the data is in its
    // ring), and the peer looks at its rings every kRingRecheck even without one: closing,
    // waiting longer than that for a doorbell to leave only delays our exit -- by the whole
    // linger (1 s) when the peer has exited first and the doorbell can never be delivered.
    if (paths_[static_cast<size_t>(worldRank)] == Path::Shm) options.linger = std::min(options.linger, kRingRecheck);
    sender = std::make_unique<transport::PeerSender>(local ? peer.ipcEndpoint : peer.tcpEndpoint, options);
  }
  return *sender;
}

transport::ShmOutbox& ZmqFabric::outboxFor(int worldRank) {
  std::lock_guard lock(sendersMutex_);
  auto& outbox = outboxes_.at(static_cast<size_t>(worldRank));
  if (!outbox) {
    outbox = std::make_unique<transport::ShmOutbox>(peers_[static_cast<size_t>(worldRank)].shmName, rank_);
    readyOutboxes_[static_cast<size_t>(worldRank)].store(outbox.get(), std::memory_order_release);
  }
  return *outbox;
}

void ZmqFabric::ringDoorbell(int worldRank) {
  doorbellsRung_.fetch_add(1, std::memory_order_relaxed);
  Envelope envelope;
  envelope.senderWorld = rank_;
  senderFor(worldRank).send(makeHeader(MessageKind::Doorbell, jobHash_, envelope, 0));
}

template <typename Write>
void ZmqFabric::writeShm(int worldRank, Write&& write) {
  transport::ShmOutbox* outbox = readyOutboxes_[static_cast<size_t>(worldRank)].load(std::memory_order_acquire);
  if (outbox == nullptr) outbox = &outboxFor(worldRank);
  if (write(*outbox)) ringDoorbell(worldRank);
  // What did not fit is written as the receiver drains, by a thread waiting in pollFast or
  // by our progress thread; it may be asleep (we may be a user thread), so make sure it looks.
  if (outbox->hasQueued()) {
    fragmentsQueued_.store(true, std::memory_order_release);
    inbox_.wake();
  }
}

bool ZmqFabric::sendShm(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes) {
  if (paths_[static_cast<size_t>(worldRank)] != Path::Shm) return false;
  writeShm(worldRank, [&](transport::ShmOutbox& outbox) { return outbox.send(header, data, bytes); });
  return true;
}

void ZmqFabric::sendShmFrame(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) {
  writeShm(worldRank, [&](transport::ShmOutbox& outbox) { return outbox.send(header, std::move(payload)); });
}

bool ZmqFabric::trySendCompact(int worldRank, uint16_t kind, const void* envelope, const void* data,
                               std::size_t bytes) {
  // Only to a peer whose ring is open already: the first message opens it the general way.
  if (static_cast<std::size_t>(worldRank) >= paths_.size() ||
      paths_[static_cast<std::size_t>(worldRank)] != Path::Shm) {
    return false;
  }
  transport::ShmOutbox* outbox = readyOutboxes_[static_cast<std::size_t>(worldRank)].load(std::memory_order_acquire);
  if (outbox == nullptr) return false;
  try {
    bool ring = false;
    if (!outbox->trySendCompact(kind, envelope, data, bytes, ring)) return false;
    noteSent(Path::Shm, bytes);
    if (ring) ringDoorbell(worldRank);
  } catch (const transport::TransportError& error) {
    failSend(worldRank, error.what());
  }
  return true;
}

void ZmqFabric::failSend(int worldRank, const char* why) const {
  fail(MPI_ERR_OTHER,
       "send to rank " + std::to_string(worldRank) + " on " + peers_[static_cast<size_t>(worldRank)].host + ": " + why);
}

void ZmqFabric::sendBytes(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes) {
  if (worldRank < 0 || static_cast<size_t>(worldRank) >= paths_.size()) {
    fail(MPI_ERR_INTERN, "send to world rank " + std::to_string(worldRank) + ", which does not exist");
  }
  const Path path = paths_[static_cast<size_t>(worldRank)];
  if (path == Path::Tcp || path == Path::Ipc) {
    noteSent(path, bytes);
    sendNetwork(worldRank, header, data, bytes, nullptr);
    return;
  }
  try {
    if (sendShm(worldRank, header, data, bytes)) {
      noteSent(path, bytes);
      return;
    }
  } catch (const transport::TransportError& error) {
    failSend(worldRank, error.what());
  }
  send(worldRank, header, zmq::message_t(data, bytes));
}

void ZmqFabric::sendNetwork(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes,
                            zmq::message_t* payload) {
  try {
    if (!ordered(worldRank)) {
      senderFor(worldRank).send(header, payload ? std::move(*payload) : zmq::message_t(data, bytes));
      return;
    }
    // Numbered once, whichever channel takes it: a number skipped would stall the gate.
    const transport::WireHeader withNumber = numbered(worldRank, header);
    // An Rts takes the bulk connection where there is one: the receiver's bulk I/O thread
    // matches it and answers with the Cts on its own, without a zmq hop. Small messages
    // too (unless ZMPI_BULK_SMALL=0): written by this thread straight into the socket and
    // read by the peer's I/O thread, they skip zmq's I/O thread on both ends.
    const bool rts = header.kind == static_cast<uint16_t>(MessageKind::Rts) && bytes == 0;
    if ((rts || (smallOnBulk_ && takesSmall(header))) && bulk_->sendCopy(worldRank, withNumber, data, bytes)) return;
    senderFor(worldRank).send(withNumber, payload ? std::move(*payload) : zmq::message_t(data, bytes));
  } catch (const transport::TransportError& error) {
    failSend(worldRank, error.what());
  }
}

bool ZmqFabric::smallMessagesOnInbox(int worldRank) const {
  if (worldRank >= 0) {
    // Self: the loopback queue, which receive() reads too.
    return paths_.at(static_cast<size_t>(worldRank)) != Path::Shm && !(smallOnBulk_ && ordered(worldRank));
  }
  for (std::size_t r = 0; r < paths_.size(); ++r) {
    if (static_cast<int>(r) != rank_ && smallMessagesOnInbox(static_cast<int>(r))) return true;
  }
  return false;
}

void ZmqFabric::send(int worldRank, const transport::WireHeader& header, zmq::message_t&& payload) {
  try {
    noteSent(paths_.at(static_cast<size_t>(worldRank)), payload.size());
    switch (paths_.at(static_cast<size_t>(worldRank))) {
      case Path::Self: {
        std::lock_guard lock(loopbackMutex_);
        // Copy: the caller may reuse its buffer once send returns.
        loopback_.push_back({header, transport::PayloadPool::copyOf(payload.data(), payload.size())});
        inbox_.wake();
        return;
      }
      case Path::Shm:
        sendShmFrame(worldRank, header, std::move(payload));
        return;
      default:
        sendNetwork(worldRank, header, payload.data(), payload.size(), &payload);
        return;
    }
  } catch (const transport::TransportError& error) {
    failSend(worldRank, error.what());
  }
}

std::size_t ZmqFabric::eagerLimit(int worldRank, std::size_t fallback) const {
  const Path path = paths_.at(static_cast<size_t>(worldRank));
  if (path != Path::Tcp && path != Path::Ipc) return fallback;
  if (zmqEagerLimit_) return *zmqEagerLimit_;
  return ordered(worldRank) ? kBulkEagerLimit : kZmqEagerLimit;
}

std::size_t ZmqFabric::dataPieceBytes(int worldRank) const {
  const Path path = paths_.at(static_cast<size_t>(worldRank));
  return path == Path::Tcp || path == Path::Ipc ? zmqPieceBytes_ : 0;
}

bool ZmqFabric::sendBulk(int worldRank, const transport::WireHeader& header, const void* data, std::size_t bytes,
                         std::function<void()> done) {
  if (!bulk_ || !bulk_->send(worldRank, header, data, bytes, std::move(done))) return false;
  noteSent(paths_[static_cast<size_t>(worldRank)], bytes);
  return true;
}

bool ZmqFabric::prepareBulk(int worldRank) { return bulk_ && bulk_->prepare(worldRank); }

void ZmqFabric::startBulk(std::function<void(transport::WireMessage&&)> deliver,
                          std::function<void(const std::string& why)> failed) {
  if (!bulk_) return;
  transport::BulkLink::Handlers handlers;
  // Only Data, only naming the rank the connection authenticated as: a frame that claims
  // another sender would let one rank complete another's receive.
  handlers.place = [this](int peer, const transport::WireHeader& header, void*& where) {
    // Data, the Cts that lets a sender write it (Engine::reply sends it here when it can),
    // and from a numbered peer the Rts and small messages (sendNetwork).
    const bool data = header.kind == static_cast<uint16_t>(MessageKind::Data);
    const bool cts = header.kind == static_cast<uint16_t>(MessageKind::Cts) && header.payloadBytes == 0;
    if ((!data && !cts && !(ordered(peer) && takesSmall(header))) || envelopeOf(header).senderWorld != peer) {
      return false;
    }
    if (!data) {
      where = nullptr;  // a small message's payload: scratch, as zmq's would be
      return true;
    }
    where = placement_ ? placement_(header) : nullptr;
    return true;
  };
  deliver_ = std::move(deliver);
  handlers.deliver = [this](int peer, transport::WireMessage&& message) {
    if (matchable(message.header.kind)) {
      deliverInOrder(peer, std::move(message));
    } else {
      deliver_(std::move(message));
    }
  };
  handlers.failed = [this, failed = std::move(failed)](int peer, const std::string& why) {
    const std::string text =
        why + " (rank " + std::to_string(peer) + " on " + peers_.at(static_cast<size_t>(peer)).host + ")";
    log::get("mpi")->error("{}", text);
    failed(text);
  };
  bulk_->start(std::move(handlers));
}

bool ZmqFabric::hasThreadedPeers() const {
  return std::any_of(paths_.begin(), paths_.end(), [](Path path) { return path == Path::Tcp || path == Path::Ipc; });
}

bool ZmqFabric::hasFastPeers() const {
  return std::any_of(paths_.begin(), paths_.end(), [](Path path) { return path == Path::Shm; });
}

bool ZmqFabric::canSleepOnRings() const { return shmInbox_ != nullptr && hasFastPeers() && !hasThreadedPeers(); }

bool ZmqFabric::isFastPeer(int worldRank) const {
  return worldRank >= 0 && static_cast<size_t>(worldRank) < paths_.size() &&
         paths_[static_cast<size_t>(worldRank)] == Path::Shm;
}

std::optional<transport::WireMessage> ZmqFabric::receive(std::chrono::milliseconds timeout) {
  {
    std::lock_guard lock(loopbackMutex_);
    if (!loopback_.empty()) {
      transport::WireMessage message = std::move(loopback_.front());
      loopback_.pop_front();
      return message;
    }
  }
  auto message = inbox_.receive(timeout);
  if (message && !plausible(*message)) return std::nullopt;
  if (message && message->header.kind == static_cast<uint16_t>(MessageKind::Doorbell)) {
    if (shmInbox_) shmInbox_->clearDoorbell();
    return std::nullopt;  // it only woke us; the data is in the rings
  }
  if (message && matchable(message->header.kind)) {
    const int sender = envelopeOf(message->header).senderWorld;
    if (ordered(sender)) {
      deliverInOrder(sender, std::move(*message));
      // Delivered (or waiting for its predecessors). The caller still hears of traffic:
      // an empty Doorbell, which the engine ignores, keeps the progress loop spinning as
      // after any message (returning nothing let it sleep sooner: +4 us per 8 B round trip).
      transport::WireMessage traffic;
      traffic.header.kind = static_cast<uint16_t>(MessageKind::Doorbell);
      traffic.header.jobHash = jobHash_;
      return traffic;
    }
  }
  return message;
}

std::size_t ZmqFabric::pollFast(transport::FunctionRef<void(transport::WireMessage&&)> deliver,
                                transport::FunctionRef<void(const transport::CompactMessage&)> deliverCompact) {
  if (!shmInbox_) return 0;
  // A waiting thread writes our queued fragments itself: in an exchange (both ranks send a
  // large message and wait) the rest of each message waited for the progress threads --
  // four threads taking turns on two cores, each flush a hand-over (2 ranks, 1 MiB
  // alltoall: 220 us against a one-way 1 MiB message's 40). Cleared before the look, so a
  // send that queues meanwhile sets it again.
  std::size_t wrote = 0;
  if (fragmentsQueued_.load(std::memory_order_relaxed) && fragmentsQueued_.exchange(false, std::memory_order_acq_rel)) {
    bool progressed = false;
    const bool still = flushOutboxes(progressed);
    wrote = progressed ? 1 : 0;  // a ring still full is no work: the spin yields as it would
    if (still) fragmentsQueued_.store(true, std::memory_order_release);
  }
  return wrote +
         shmInbox_->drain(
             [&](int, transport::WireMessage&& message) {
               if (plausible(message)) deliver(std::move(message));
             },
             [&](int, const transport::CompactMessage& message) {
               if (plausibleEnvelope(message.envelope, size_) || plausible(transport::wireMessageOf(message, 0))) {
                 deliverCompact(message);
               }
             });
}

bool ZmqFabric::plausible(const transport::WireMessage& message) {
  if (plausibleMessage(message.header, size_)) return true;
  const std::string why = implausibleMessage(message.header, size_);
  if (why.empty()) return true;
  const uint64_t n = implausible_.fetch_add(1) + 1;
  log::get("mpi")->log(log::rejectLevel(n), "rejected a message of kind {} ({} so far): {}", message.header.kind, n,
                       why);
  return false;
}

void ZmqFabric::enterPolling() {
  if (shmInbox_) shmInbox_->enterPolling();
}

void ZmqFabric::leavePolling() {
  if (shmInbox_) shmInbox_->leavePolling();
}

void ZmqFabric::setPlacement(const Placement& placement) {
  placement_ = placement;
  if (!shmInbox_) return;
  shmInbox_->setPlacement([place = placement](int, const transport::WireHeader& header) { return place(header); });
}

bool ZmqFabric::hasFastData() { return shmInbox_ && shmInbox_->hasData(); }

bool ZmqFabric::publishConsumed(int worldRank, uint64_t total) {
  if (paths_.at(static_cast<size_t>(worldRank)) != Path::Shm || !shmInbox_) return false;
  shmInbox_->publishCredit(worldRank, total);
  return true;
}

bool ZmqFabric::peerConsumed(int worldRank, uint64_t& total) {
  if (paths_.at(static_cast<size_t>(worldRank)) != Path::Shm) return false;
  // No outbox yet: nothing went through the ring, so nothing was consumed.
  const transport::ShmOutbox* outbox = readyOutboxes_[static_cast<size_t>(worldRank)].load(std::memory_order_acquire);
  total = outbox ? outbox->credit() : 0;
  return true;
}

bool ZmqFabric::hasQueued() {
  for (std::size_t r = 0; r < paths_.size(); ++r) {
    transport::ShmOutbox* outbox = readyOutboxes_[r].load(std::memory_order_acquire);
    if (outbox != nullptr && outbox->hasQueued()) return true;
  }
  return false;
}

bool ZmqFabric::flushQueued() {
  bool progressed = false;
  return flushOutboxes(progressed);
}

bool ZmqFabric::flushOutboxes(bool& progressed) {
  bool stillQueued = false;
  for (std::size_t r = 0; r < paths_.size(); ++r) {
    transport::ShmOutbox* outbox = readyOutboxes_[r].load(std::memory_order_acquire);
    if (outbox == nullptr || !outbox->hasQueued()) continue;
    bool wrote = false;
    if (outbox->flush(&wrote)) ringDoorbell(static_cast<int>(r));
    progressed |= wrote;
    stillQueued |= outbox->hasQueued();
  }
  return stillQueued;
}

void ZmqFabric::close() {
  if (bulk_) {
    bulk_->stop();  // its thread delivers to the engine: stopped before anything else
    log::get("mpi")->debug("{} bulk frames sent; {} numbered messages waited for a predecessor", bulk_->framesSent(),
                           outOfOrderCount());
  }
  std::lock_guard lock(sendersMutex_);
  for (auto& sender : senders_) {
    if (sender) sender->close();
  }
  senders_.clear();
  for (size_t r = 0; r < outboxes_.size(); ++r) readyOutboxes_[r].store(nullptr);
  outboxes_.clear();
  shmInbox_.reset();
  if (!ipcPath_.empty()) {
    ::unlink(ipcPath_.c_str());
    ipcPath_.clear();
  }
}

}  // namespace zmpi::mpi
