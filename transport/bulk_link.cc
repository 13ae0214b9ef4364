#include "transport/bulk_link.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "transport/bulk_settings.h"
#include "transport/congestion.h"
#include "transport/errors.h"
#include "transport/log.h"
#include "transport/payload_pool.h"
#include "transport/sched_slice.h"
#include "transport/spin_gate.h"

namespace zmpi::transport {
namespace {

const IntSetting kBulkConnectSetting{"ZMPI_BULK_CONNECT_MS",
                                     5000,
                                     {1, 1LL << 40},
                                     "milliseconds",
                                     Level::Tuning,
                                     "how long a rank tries to connect a bulk connection before that peer's data "
                                     "takes zmq"};
const IntSetting kBulkHandshakeSetting{"ZMPI_BULK_HANDSHAKE_MS",
                                       10000,
                                       {1, 1LL << 40},
                                       "milliseconds",
                                       Level::Tuning,
                                       "how long an unauthenticated bulk connection may take to prove the job's key"};
const IntSetting kBulkSliceSetting{
    "ZMPI_BULK_SLICE_US", 0,
    {0, 1LL << 30},       "microseconds",
    Level::Tuning,        "the bulk I/O thread's scheduler time slice on Linux >= 6.12 (0: the kernel's)"};
const IntSetting kBulkContestedSetting{"ZMPI_BULK_CONTESTED_US",
                                       0,
                                       {0, 1LL << 30},
                                       "microseconds",
                                       Level::Tuning,
                                       "a yield of the bulk spin longer than this pauses it for a while: the CPU "
                                       "is contested (0: never)"};
// BulkLink::kMostPerWrite.
const IntSetting kBulkWriteSetting{"ZMPI_BULK_WRITE_BYTES",
                                   1024 * 1024 - 8 * 1024,
                                   {0, 1LL << 40},
                                   "bytes",
                                   Level::Tuning,
                                   "the most payload one write to a bulk connection takes (0: no limit): a single "
                                   "send of 1 MiB or more is slow over loopback"};

// Small frames (a 72-byte header before the first payload bytes) must not wait for an
// acknowledgement. Socket buffers stay the kernel's (autotuned): 4 and 8 MiB buffers
// measured no different.
void noDelay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

std::string errnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

std::string peerName(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return "?";
  char host[NI_MAXHOST] = {};
  char port[NI_MAXSERV] = {};
  if (::getnameinfo(reinterpret_cast<sockaddr*>(&address), length, host, sizeof host, port, sizeof port,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "?";
  }
  return std::string(host) + ":" + port;
}

}  // namespace

// One frame on its way out: the header, then the payload from the caller's buffer.
struct Job {
  WireHeader header;
  const uint8_t* data;
  std::size_t bytes;
  std::size_t sent = 0;  // of sizeof(header) + bytes
  std::function<void()> done;
  // sendCopy: the payload, copied here when the socket did not take it at once.
  std::unique_ptr<uint8_t[]> owned;
};

struct BulkLink::Outgoing {
  int fd = -1;
  std::deque<Job> queue;
  // Whether `queue` may hold a frame, for the I/O thread's scan without the peer's mutex:
  // a sender holds that mutex through its send(), and a spinning I/O thread that locked
  // every peer's each round made the sender wake it (a futex call per frame) when it
  // unlocked. Set with every push (under the mutex, before the sender wakes the thread),
  // cleared when writeSome empties the queue; a stale true only costs a look.
  std::atomic<bool> mayHaveQueue{false};
};

struct BulkLink::Peer {
  enum class State { Untried, Ready, Unavailable };
  std::mutex connectMutex;  // one connection attempt at a time
  std::mutex mutex;         // everything below; the writes on `out`
  std::string host;
  uint16_t port = 0;
  State state = State::Untried;
  Outgoing out;
  // `out` is the pair's lasting connection: the one the lower rank made (see
  // shareWithOutgoing).
  bool outLasting = false;
};

struct BulkLink::Incoming {
  enum class State { Hello, Proof, Header, Payload };
  int fd = -1;
  std::string from;  // address, for log lines
  int peer = -1;     // the authenticated rank at the other end
  // Our frames to `peer` go out on this connection too: the dup of fd that Peer::out
  // holds, or -1 (we write to the peer on another connection, or not at all).
  int outFd = -1;
  bool ours = false;  // we made the connection (else accepted it)
  State state = State::Hello;
  std::chrono::steady_clock::time_point deadline;   // of the handshake
  std::array<uint8_t, sizeof(WireHeader)> small{};  // Hello, Proof or header, as it arrives
  std::size_t got = 0;
  bulk::HelloBytes hello{};
  bulk::ReplyBytes reply{};
  WireHeader header;
  uint8_t* target = nullptr;
  zmq::message_t scratch;
  bool placed = false;
  // The frame's payload lies whole in the staging buffer and is lent from there.
  const uint8_t* lent = nullptr;
  // Frames as they arrive, several small ones per recv (allocated at the first frame).
  std::unique_ptr<uint8_t[]> staged;
  std::size_t stagedBegin = 0;
  std::size_t stagedEnd = 0;
};

BulkLink::BulkLink(uint64_t jobHash, int rank, int worldSize, const bulk::Key& key)
    : jobHash_(jobHash),
      rank_(rank),
      worldSize_(worldSize),
      key_(key),
      connectTimeout_(kBulkConnectSetting.read()),
      handshakeTimeout_(kBulkHandshakeSetting.read()),
      spinTime_(kBulkSpinSetting.read()),
      slice_(kBulkSliceSetting.read()),
      contested_(kBulkContestedSetting.read()),
      mostPerWrite_(static_cast<std::size_t>(kBulkWriteSetting.read())),
      congestion_(congestionFromEnvironment()) {
  for (int r = 0; r < worldSize; ++r) peers_.push_back(std::make_unique<Peer>());
  wakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wakeFd_ < 0) throw TransportError(errnoText("eventfd for the bulk link"));
  waiterWakeFd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (waiterWakeFd_ < 0) throw TransportError(errnoText("eventfd for the bulk link's waiters"));
}

BulkLink::~BulkLink() {
  stop();
  if (wakeFd_ >= 0) ::close(wakeFd_);
  if (waiterWakeFd_ >= 0) ::close(waiterWakeFd_);
  sodium_memzero(key_.data(), key_.size());
}

uint16_t BulkLink::listen(const std::string& address) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(address.c_str(), "0", &hints, &found); rc != 0) {
    throw TransportError("bulk listener on " + address + ": " + ::gai_strerror(rc));
  }
  std::string why = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      why = errnoText("socket");
      continue;
    }
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 128) != 0) {
      why = errnoText("bind");
      ::close(fd);
      continue;
    }
    listenFd_ = fd;
    break;
  }
  ::freeaddrinfo(found);
  if (listenFd_ < 0) throw TransportError("bulk listener on " + address + ": " + why);
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&bound), &length);
  return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                           : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

void BulkLink::setPeer(int peer, const std::string& host, uint16_t port) {
  Peer& p = *peers_.at(static_cast<std::size_t>(peer));
  std::lock_guard lock(p.mutex);
  p.host = host;
  p.port = port;
  if (host.empty() || port == 0 || peer == rank_) p.state = Peer::State::Unavailable;
}

void BulkLink::start(Handlers handlers) {
  handlers_ = std::move(handlers);
  thread_ = std::thread([this] { run(); });
}

void BulkLink::stop() {
  if (stopping_.exchange(true)) return;
  wakeThread();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(incomingMutex_);
  takeJoining();
  for (auto& in : incoming_) {
    if (in->fd >= 0) ::close(in->fd);
  }
  incoming_.clear();
  for (auto& p : peers_) {
    std::lock_guard lock(p->mutex);
    if (p->out.fd >= 0) ::close(p->out.fd);
    p->out.fd = -1;
    p->out.queue.clear();
    p->state = Peer::State::Unavailable;
  }
  if (listenFd_ >= 0) ::close(listenFd_);
  listenFd_ = -1;
}

void BulkLink::wakeThread() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(wakeFd_, &one, sizeof one);
}

int BulkLink::connectTo(int peer, std::string& why) {
  Peer& p = *peers_[static_cast<std::size_t>(peer)];
  const auto deadline = std::chrono::steady_clock::now() + connectTimeout_;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(p.port);
  if (const int rc = ::getaddrinfo(p.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    why = ::gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  why = "no address";
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      why = errnoText("socket");
      continue;
    }
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
      why = errnoText("connect");
      ::close(fd);
      fd = -1;
      continue;
    }
    // Connected when writable; SO_ERROR says whether it worked.
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd wait{fd, POLLOUT, 0};
    int error = 0;
    socklen_t length = sizeof error;
    const int ready = ::poll(&wait, 1, static_cast<int>(std::max<long long>(0, left.count())));
    if (ready <= 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
      why = ready == 0 ? "connect timed out" : std::string("connect: ") + std::strerror(error != 0 ? error : errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return -1;
  noDelay(fd);
  applyCongestion(fd, congestion_);
  why = bulk::clientHandshake(
      fd, key_, bulk::makeHello(jobHash_, static_cast<uint32_t>(rank_), static_cast<uint32_t>(peer)), deadline);
  if (!why.empty()) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool BulkLink::connected(int peer) {
  Peer& p = *peers_[static_cast<std::size_t>(peer)];
  {
    std::lock_guard lock(p.mutex);
    if (p.state != Peer::State::Untried) return p.state == Peer::State::Ready;
  }
  // Our I/O thread never connects (a frame it delivers may ask it to send): two of them
  // connecting to each other would each wait for the other to answer the handshake.
  if (std::this_thread::get_id() == thread_.get_id()) return false;
  // Connecting takes a round trip to the peer's I/O thread: not under p.mutex, which our
  // own I/O thread takes (two ranks connecting to each other would wait for each other).
  std::lock_guard connecting(p.connectMutex);
  {
    std::lock_guard lock(p.mutex);
    if (p.state != Peer::State::Untried) return p.state == Peer::State::Ready;
  }
  std::string why;
  const int fd = connectTo(peer, why);
  // The peer writes its frames to us on this connection (unless it already had one to us
  // when it took ours): read from now on, whichever connection our frames take.
  const int readFd = fd >= 0 && !stopping_.load() ? ::fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
  bool published = false;
  bool ready = false;
  {
    std::lock_guard lock(p.mutex);
    if (readFd < 0) {
      if (fd >= 0) ::close(fd);
      if (fd >= 0 && !stopping_.load()) why = errnoText("dup");
      if (p.state == Peer::State::Untried) {
        // Once per peer: from now on its bulk data takes the zmq path.
        p.state = Peer::State::Unavailable;
        log::get("transport")
            ->debug("no bulk data connection to rank {} at {}:{} ({}); using zmq", peer, p.host, p.port, why);
      }
      return p.state == Peer::State::Ready;
    }
    // The peer's connection to us, accepted while we connected, may carry ours already.
    if (p.state == Peer::State::Untried) {
      p.out.fd = fd;
      p.state = Peer::State::Ready;
      p.outLasting = lasting(/*ours=*/true, peer);
      published = true;
      log::get("transport")->debug("bulk data connection to rank {} at {}:{}", peer, p.host, p.port);
    } else {
      ::close(fd);
    }
    ready = p.state == Peer::State::Ready;
  }
  auto reader = std::make_unique<Incoming>();
  reader->fd = readFd;
  reader->from = p.host + ":" + std::to_string(p.port);
  reader->peer = peer;
  reader->outFd = published ? fd : -1;
  reader->ours = true;
  reader->state = Incoming::State::Header;
  {
    // Not incomingMutex_: this thread may hold it already (a frame it delivers asked for
    // this send). The I/O thread and the waiters take it in at their next look.
    std::lock_guard lock(joiningMutex_);
    joining_.push_back(std::move(reader));
    joiningCount_.store(joining_.size(), std::memory_order_release);
  }
  wakeThread();  // it watches the new connection from now on
  return ready;
}

void BulkLink::takeJoining() {
  if (joiningCount_.load(std::memory_order_acquire) == 0) return;
  std::vector<std::unique_ptr<Incoming>> joined;
  {
    std::lock_guard lock(joiningMutex_);
    joined.swap(joining_);
    joiningCount_.store(0, std::memory_order_release);
  }
  for (auto& in : joined) {
    incoming_.push_back(std::move(in));
    if (incoming_.back()->outFd < 0) shareWithOutgoing(*incoming_.back());
  }
}

void BulkLink::closeIncoming(Incoming& in, const std::string& why) {
  ::close(in.fd);
  in.fd = -1;
  // The socket ends with its last descriptor: our outgoing one on it goes too.
  if (in.outFd < 0) return;
  Peer& p = *peers_[static_cast<std::size_t>(in.peer)];
  bool lost = false;
  {
    std::lock_guard lock(p.mutex);
    if (p.out.fd != in.outFd) return;
    lost = !p.out.queue.empty();
    ::close(p.out.fd);
    p.out.fd = -1;
    p.out.queue.clear();
    p.state = Peer::State::Unavailable;  // later frames to it take the zmq path
  }
  in.outFd = -1;
  if (lost) {
    handlers_.failed(in.peer,
                     "bulk data connection to rank " + std::to_string(in.peer) + " broke mid-transfer: " + why);
  }
}

bool BulkLink::prepare(int peer) {
  if (peer < 0 || peer >= worldSize_ || stopping_.load()) return false;
  return connected(peer);
}

bool BulkLink::send(int peer, const WireHeader& header, const void* data, std::size_t bytes,
                    std::function<void()> done) {
  return enqueue(peer, header, data, bytes, std::move(done), false);
}

bool BulkLink::sendCopy(int peer, const WireHeader& header, const void* data, std::size_t bytes) {
  return enqueue(peer, header, data, bytes, {}, true);
}

bool BulkLink::enqueue(int peer, const WireHeader& header, const void* data, std::size_t bytes,
                       std::function<void()> done, bool copyIfQueued) {
  if (peer < 0 || peer >= worldSize_ || stopping_.load()) return false;
  Peer& p = *peers_[static_cast<std::size_t>(peer)];
  std::vector<std::function<void()>> finished;
  bool queued = false;
  if (!connected(peer)) return false;
  {
    std::unique_lock lock(p.mutex);
    if (p.state != Peer::State::Ready) return false;  // broke since
    p.out.queue.push_back(Job{header, static_cast<const uint8_t*>(data), bytes, 0, std::move(done), nullptr});
    p.out.mayHaveQueue.store(true, std::memory_order_release);
    framesSent_.fetch_add(1, std::memory_order_relaxed);
    if (p.out.queue.size() == 1) {
      std::string why;
      if (!writeSome(p.out, finished, why)) {
        // Nothing of this frame went out and nothing else waits: the caller can still take
        // the zmq path (the peer is most likely gone, which zmq's path will report).
        if (p.out.queue.size() == 1 && p.out.queue.front().sent == 0) {
          p.out.queue.clear();
          p.state = Peer::State::Unavailable;
          log::get("transport")->debug("bulk data connection to rank {} failed ({}); using zmq", peer, why);
          return false;
        }
        lock.unlock();
        handlers_.failed(peer, "bulk data connection to rank " + std::to_string(peer) + " broke mid-transfer: " + why);
        return true;
      }
    }
    // Ours is the last job; if it is still queued, the caller's buffer is not ours to keep.
    if (copyIfQueued && !p.out.queue.empty() && bytes > 0) {
      Job& job = p.out.queue.back();  // the queue is written in order: ours is last if unfinished
      job.owned = std::make_unique<uint8_t[]>(bytes);
      std::memcpy(job.owned.get(), data, bytes);
      job.data = job.owned.get();
    }
    queued |= !p.out.queue.empty();
  }
  for (auto& callback : finished) {
    if (callback) callback();
  }
  if (queued) wakeThread();
  return true;
}

bool BulkLink::writeSome(Outgoing& out, std::vector<std::function<void()>>& done, std::string& why) const {
  while (!out.queue.empty()) {
    Job& job = out.queue.front();
    constexpr std::size_t kHeader = sizeof(WireHeader);
    iovec parts[2];
    int count = 0;
    if (job.sent < kHeader) {
      parts[count++] = {reinterpret_cast<uint8_t*>(&job.header) + job.sent, kHeader - job.sent};
      if (job.bytes > 0) parts[count++] = {const_cast<uint8_t*>(job.data), job.bytes};
    } else {
      const std::size_t offset = job.sent - kHeader;
      parts[count++] = {const_cast<uint8_t*>(job.data) + offset, job.bytes - offset};
    }
    // A payload above the limit goes out in several writes (see kMostPerWrite).
    if (mostPerWrite_ > 0 && parts[count - 1].iov_len > mostPerWrite_) parts[count - 1].iov_len = mostPerWrite_;
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = static_cast<std::size_t>(count);
    const ssize_t n = ::sendmsg(out.fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
      why = errnoText("send");
      return false;
    }
    job.sent += static_cast<std::size_t>(n);
    if (job.sent == kHeader + job.bytes) {
      done.push_back(std::move(job.done));
      out.queue.pop_front();
    }
  }
  out.mayHaveQueue.store(false, std::memory_order_relaxed);
  return true;
}

void BulkLink::run() {
  auto logger = log::get("transport");
  std::vector<pollfd> fds;
  std::vector<int> outPeers;        // the peer of each outgoing entry in fds
  std::vector<Incoming*> polledIn;  // the incoming connection of each entry after the first two
  auto lastBusy = std::chrono::steady_clock::now() - std::chrono::hours(1);
  // Beside busy processes, a payload read or written in one turn on the CPU (see slice_).
  if (slice_.count() > 0 && !requestSchedSlice(slice_)) {
    logger->debug("bulk link: no {} us scheduler slice for the I/O thread", slice_.count());
  }
  SpinGate gate({.contested = contested_});
  bool spinning = false;  // a spin is under way (for the gate: did it run its course?)
  uint64_t seenFrames = 0;
  while (!stopping_.load()) {
    fds.clear();
    outPeers.clear();
    polledIn.clear();
    fds.push_back({wakeFd_, POLLIN, 0});
    fds.push_back({listenFd_, static_cast<short>(listenFd_ >= 0 ? POLLIN : 0), 0});
    const auto now = std::chrono::steady_clock::now();
    // A waiter reads the authenticated connections (readAsWaiter): not polled here until
    // it has left them for kWaiterLinger.
    const int64_t waiterUntil = waiterUntil_.load(std::memory_order_acquire);
    const bool waiterReads = now.time_since_epoch().count() < waiterUntil;
    int timeout = -1;
    bool busy = false;
    {
      std::lock_guard lock(incomingMutex_);
      takeJoining();
      for (auto& in : incoming_) {
        if (in->fd < 0 || (waiterReads && in->peer >= 0)) continue;
        fds.push_back({in->fd, POLLIN, 0});
        polledIn.push_back(in.get());
        // While a frame is under way, poll without sleeping for a while (below).
        busy |= in->state == Incoming::State::Payload;
      }
      for (auto& in : incoming_) {
        if (in->peer >= 0 || in->fd < 0) continue;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(in->deadline - now).count();
        timeout = static_cast<int>(std::clamp<long long>(left, 0, timeout < 0 ? 60000 : timeout));
      }
      // And after any frame this thread delivered, however small: the next one (a reply,
      // the next step of a collective) is likely near, and a sleeping reader costs it a
      // wake-up (forced-tcp 8 B ping-pong 29 -> 20 us, 2-rank allreduce 8 B 41 -> 24 us).
      if (!waiterReads && deliveredFrames_ != seenFrames) busy = true;
      seenFrames = deliveredFrames_;
    }
    if (waiterReads) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(std::chrono::nanoseconds(waiterUntil) - now.time_since_epoch())
              .count();
      timeout = static_cast<int>(std::clamp<long long>(left, 0, timeout < 0 ? 60000 : timeout));
    }
    for (int r = 0; r < worldSize_; ++r) {
      Peer& p = *peers_[static_cast<std::size_t>(r)];
      if (!p.out.mayHaveQueue.load(std::memory_order_acquire)) continue;
      std::lock_guard lock(p.mutex);
      // Only to finish writes: the socket's reads, its end included, are an Incoming's.
      if (p.out.fd < 0 || p.out.queue.empty()) continue;
      fds.push_back({p.out.fd, POLLOUT, 0});
      outPeers.push_back(r);
    }
    // While a frame is under way in either direction, poll without sleeping for a while:
    // on a VM a sleeping reader costs the writer an inter-processor wake-up per segment.
    // Not while the CPU is contested (the gate): there each yield gives it away for a
    // whole time slice of a busy process.
    busy |= !outPeers.empty();  // each polled to finish a queued write
    if (busy) lastBusy = now;
    const bool wantSpin = now - lastBusy < spinTime_;
    const bool spin = wantSpin && gate.allows(now);
    if (spinning && !wantSpin && gate.allows(now)) gate.spinEnded();  // ran its course
    spinning = spin;
    int ready = ::poll(fds.data(), fds.size(), spin ? 0 : timeout);
    if (ready == 0 && spin) {
      // Timed: a yield that kept us off the CPU for long means other threads want it.
      const auto before = std::chrono::steady_clock::now();
      const auto pause = gate.pause();
      std::this_thread::yield();
      if (gate.yielded(before, std::chrono::steady_clock::now())) {
        logger->trace("bulk link: CPU contested, not spinning for {} ms", pause.count());
      }
      continue;
    }
    if (ready < 0 && errno != EINTR) {
      logger->error("bulk link: {}", errnoText("poll"));
      return;
    }
    if (fds[0].revents != 0) {
      uint64_t count;
      [[maybe_unused]] const ssize_t n = ::read(wakeFd_, &count, sizeof count);
    }
    {
      std::lock_guard lock(incomingMutex_);
      if (fds[1].revents != 0) acceptAll();
      // The connections polled (a waiter may have finished with one meanwhile: fd -1), but
      // not those a waiter has announced it reads since the poll began.
      const bool waiterNow =
          std::chrono::steady_clock::now().time_since_epoch().count() < waiterUntil_.load(std::memory_order_acquire);
      for (std::size_t i = 0; i < polledIn.size(); ++i) {
        Incoming& in = *polledIn[i];
        if (waiterNow && in.peer >= 0) continue;
        if (fds[2 + i].revents != 0 && in.fd == fds[2 + i].fd) readFrom(in);
      }
      const auto later = std::chrono::steady_clock::now();
      for (auto& in : incoming_) {
        if (in->fd >= 0 && in->peer < 0 && later >= in->deadline) {
          refuse(*in, "no handshake within " + std::to_string(handshakeTimeout_.count()) + " ms");
        }
      }
      // Every path that finishes with a connection closes it (fd -1), whoever read it.
      std::erase_if(incoming_, [](const std::unique_ptr<Incoming>& in) { return in->fd < 0; });
    }
    std::size_t at = 2 + polledIn.size();
    for (std::size_t k = 0; k < outPeers.size(); ++k, ++at) {
      const short events = fds[at].revents;
      if (events == 0) continue;
      const int r = outPeers[k];
      Peer& p = *peers_[static_cast<std::size_t>(r)];
      std::vector<std::function<void()>> finished;
      std::string why;
      bool broken = false;
      {
        std::lock_guard lock(p.mutex);
        if (p.out.fd != fds[at].fd) continue;
        broken = !writeSome(p.out, finished, why);
        if (!broken && (events & (POLLERR | POLLHUP)) && !p.out.queue.empty()) {
          broken = true;
          why = "closed by the peer";
        }
        if (broken) {
          const bool lost = !p.out.queue.empty();
          ::close(p.out.fd);
          p.out.fd = -1;
          p.out.queue.clear();
          p.state = Peer::State::Unavailable;  // later frames to it take the zmq path
          if (!lost) {
            logger->debug("bulk data connection to rank {} ended ({})", r, why);
            broken = false;
          }
        }
      }
      for (auto& callback : finished) {
        if (callback) callback();
      }
      if (broken)
        handlers_.failed(r, "bulk data connection to rank " + std::to_string(r) + " broke mid-transfer: " + why);
    }
  }
}

void BulkLink::announceWaiter(std::chrono::steady_clock::time_point now, std::chrono::nanoseconds stay) {
  // Announced before the look, so that the I/O thread stops reading these connections
  // (from its next decision on, made under this mutex). Finite: the I/O thread sleeps
  // until then at most, and takes them back if nobody read since. Coming back after the
  // linger, the I/O thread is told at once, out of a poll that may include them.
  const int64_t at = now.time_since_epoch().count();
  const bool back = waiterUntil_.load(std::memory_order_relaxed) <= at;
  waiterUntil_.store(at + stay.count(), std::memory_order_release);
  if (back) wakeThread();
}

std::size_t BulkLink::waiterPollSet(std::vector<pollfd>& fds) const {
  fds.clear();
  for (const auto& in : incoming_) {
    if (in->fd >= 0 && in->peer >= 0) fds.push_back({in->fd, POLLIN, 0});
  }
  const std::size_t connections = fds.size();
  // The wake-up meant for a sleeping waiter is taken by any look, or the next sleep ends at once.
  fds.push_back({waiterWakeFd_, POLLIN, 0});
  return connections;
}

void BulkLink::readPolled(const std::vector<pollfd>& fds, std::size_t connections, WaiterRead& result) {
  if (fds[connections].revents != 0) {
    uint64_t count;
    [[maybe_unused]] const ssize_t n = ::read(waiterWakeFd_, &count, sizeof count);
    result.woken = true;
  }
  // By fd, not by the poll's entries: when the mutex was let go during the poll, the I/O
  // thread may have finished with one and erased it (an fd number reused since is another
  // authenticated connection, which a non-blocking read does no harm).
  const uint64_t framesBefore = deliveredFrames_;
  const uint64_t bytesBefore = receivedBytes_;
  for (auto& in : incoming_) {
    if (stopping_.load()) break;
    if (in->fd < 0 || in->peer < 0) continue;
    for (std::size_t i = 0; i < connections; ++i) {
      if (fds[i].fd == in->fd && fds[i].revents != 0) {
        readFrom(*in);
        break;
      }
    }
  }
  result.frames = deliveredFrames_ - framesBefore;
  result.bytes = receivedBytes_ - bytesBefore;
  waiterFrames_.fetch_add(result.frames, std::memory_order_relaxed);
}

bool BulkLink::payloadUnderWay() const {
  return std::any_of(incoming_.begin(), incoming_.end(),
                     [](const auto& in) { return in->peer >= 0 && in->state == Incoming::State::Payload; });
}

BulkLink::WaiterRead BulkLink::lookAsWaiter() {
  // Everything under one hold of the mutex: the announcement, the look (poll with no
  // timeout), the reads and what the caller is told. The I/O thread decides under the
  // same mutex, so it cannot read these connections meanwhile, and the announcement's
  // linger starts now (the look takes microseconds).
  WaiterRead result;
  std::lock_guard lock(incomingMutex_);
  if (stopping_.load()) return result;
  takeJoining();
  announceWaiter(std::chrono::steady_clock::now(), waiterLinger_);
  const std::size_t connections = waiterPollSet(lookFds_);
  if (::poll(lookFds_.data(), lookFds_.size(), 0) > 0) readPolled(lookFds_, connections, result);
  result.midFrame = payloadUnderWay();
  return result;
}

BulkLink::WaiterRead BulkLink::readAsWaiter(std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return lookAsWaiter();
  using Clock = std::chrono::steady_clock;
  std::vector<pollfd> fds;
  std::size_t connections;
  {
    std::lock_guard lock(incomingMutex_);
    if (stopping_.load()) return {};
    takeJoining();
    announceWaiter(Clock::now(), timeout + waiterLinger_);
    connections = waiterPollSet(fds);
  }
  WaiterRead result;
  const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(timeout.count()));
  {
    std::lock_guard lock(incomingMutex_);
    if (ready > 0) readPolled(fds, connections, result);
    result.midFrame = payloadUnderWay();
    waiterUntil_.store((Clock::now() + waiterLinger_).time_since_epoch().count(), std::memory_order_release);
  }
  // After a poll that may have ended early, the I/O thread, asleep until the end of the
  // timeout, looks again: it takes the connections back after the linger, not the timeout.
  wakeThread();
  return result;
}

void BulkLink::wakeWaiter() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(waiterWakeFd_, &one, sizeof one);
}

void BulkLink::releaseToThread() {
  // A system call only when the I/O thread is actually staying away.
  if (waiterUntil_.load(std::memory_order_acquire) <= std::chrono::steady_clock::now().time_since_epoch().count()) {
    return;
  }
  waiterUntil_.store(0, std::memory_order_release);
  wakeThread();
}

void BulkLink::acceptAll() {
  for (;;) {
    const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
        log::get("transport")->warn("bulk link: {}", errnoText("accept"));
      }
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;
    }
    noDelay(fd);
    applyCongestion(fd, congestion_);  // it writes too (shareWithOutgoing)
    auto in = std::make_unique<Incoming>();
    in->fd = fd;
    in->from = peerName(fd);
    in->deadline = std::chrono::steady_clock::now() + handshakeTimeout_;
    incoming_.push_back(std::move(in));
  }
}

void BulkLink::refuse(Incoming& in, const std::string& why) {
  const uint64_t n = refused_.fetch_add(1) + 1;
  log::get("transport")
      ->log(log::rejectLevel(n), "refused a bulk data connection from {} ({} so far): {}", in.from, n, why);
  closeIncoming(in, why);
}

bool BulkLink::readFrom(Incoming& in) {
  // The handshake reads exactly its messages (the client writes nothing more before it is
  // accepted); frames go through the staging buffer (below), payloads that do not fit it
  // straight into their buffer.
  while (in.state == Incoming::State::Hello || in.state == Incoming::State::Proof) {
    const std::size_t size = in.state == Incoming::State::Hello ? bulk::kHelloBytes : bulk::kProofBytes;
    const ssize_t n = ::recv(in.fd, in.small.data() + in.got, size - in.got, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (n <= 0) {
      refuse(in, "during the handshake: " + (n == 0 ? std::string("closed by the peer") : errnoText("recv")));
      return false;
    }
    in.got += static_cast<std::size_t>(n);
    if (in.got == size && !handshakeStep(in)) return false;
  }
  for (;;) {
    if (!takeStagedFrames(in)) return false;
    uint8_t* into;
    std::size_t want;
    if (in.state == Incoming::State::Payload) {
      into = in.target + in.got;
      want = in.header.payloadBytes - in.got;
    } else {
      // Header: read as much as the staging buffer takes -- a small frame, header and
      // payload, in one recv (and often the next frames too) -- keeping a partial header.
      if (!in.staged) in.staged = std::make_unique<uint8_t[]>(kStageBytes);
      if (in.stagedBegin > 0) {
        std::memmove(in.staged.get(), in.staged.get() + in.stagedBegin, in.stagedEnd - in.stagedBegin);
        in.stagedEnd -= in.stagedBegin;
        in.stagedBegin = 0;
      }
      into = in.staged.get() + in.stagedEnd;
      want = kStageBytes - in.stagedEnd;
    }
    const ssize_t n = ::recv(in.fd, into, want, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (n <= 0) {
      const std::string why = n == 0 ? "closed by the peer" : errnoText("recv");
      closeIncoming(in, why);
      // Between frames the peer is done with us; within one, bytes are lost.
      if (in.state != Incoming::State::Header || in.stagedEnd > in.stagedBegin) {
        handlers_.failed(in.peer,
                         "bulk data connection from rank " + std::to_string(in.peer) + " broke mid-transfer: " + why);
      }
      return false;
    }
    receivedBytes_ += static_cast<uint64_t>(n);
    if (in.state == Incoming::State::Payload) {
      in.got += static_cast<std::size_t>(n);
      if (in.got == in.header.payloadBytes) finishFrame(in);
    } else {
      in.stagedEnd += static_cast<std::size_t>(n);
    }
    // A short read emptied the socket: what came is handled, then poll() says when more does.
    if (static_cast<std::size_t>(n) < want) return takeStagedFrames(in);
  }
}

bool BulkLink::handshakeStep(Incoming& in) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(1000);
  if (in.state == Incoming::State::Hello) {
    std::memcpy(in.hello.data(), in.small.data(), bulk::kHelloBytes);
    bulk::Hello hello;
    std::string why;
    if (!bulk::decodeHello(in.hello, jobHash_, static_cast<uint32_t>(rank_), hello, why)) {
      refuse(in, why);
      return false;
    }
    if (hello.clientRank >= static_cast<uint32_t>(worldSize_) || hello.clientRank == static_cast<uint32_t>(rank_)) {
      refuse(in, "a hello from rank " + std::to_string(hello.clientRank) + ", not a peer of this world");
      return false;
    }
    in.reply = bulk::makeReply(key_, in.hello);
    // 64 bytes on a fresh connection: the socket buffer takes them at once.
    if (auto failed = bulk::writeFully(in.fd, in.reply.data(), in.reply.size(), deadline); !failed.empty()) {
      refuse(in, "sending the reply: " + failed);
      return false;
    }
    in.state = Incoming::State::Proof;
    in.got = 0;
    return true;
  }
  bulk::ProofBytes proof;
  std::memcpy(proof.data(), in.small.data(), proof.size());
  if (!bulk::checkProof(key_, in.hello, in.reply, proof)) {
    refuse(in, "the client does not hold this job's key");
    return false;
  }
  const uint8_t accept = bulk::kAccept;
  if (auto failed = bulk::writeFully(in.fd, &accept, 1, deadline); !failed.empty()) {
    refuse(in, "sending the acceptance: " + failed);
    return false;
  }
  uint32_t client;
  std::memcpy(&client, in.hello.data() + 16, sizeof client);
  in.peer = static_cast<int>(client);
  in.state = Incoming::State::Header;
  in.got = 0;
  shareWithOutgoing(in);
  accepted_.fetch_add(1);  // after: a test that sees the count sees our frames' connection
  return true;
}

void BulkLink::shareWithOutgoing(Incoming& in) {
  // One connection per pair carries both directions, so that a reply carries the TCP
  // acknowledgement of what it answers. On a connection per direction each small frame's
  // receiver sends a bare ACK for every other one, from inside its recv(): between hosts
  // (veth) 1.5 packets a message instead of 1.
  // Our frames take this connection if we have none yet; and move to it from another if
  // it is the lasting one, the lower rank's, while nothing of ours is queued: when both
  // ranks connect at once (their first messages cross, as in a barrier), both end on the
  // lower rank's connection. A frame that moves can overtake one still on the other
  // connection, which is what the receiving fabric's order gate is for (transport/README).
  Peer& p = *peers_[static_cast<std::size_t>(in.peer)];
  std::lock_guard lock(p.mutex);
  const bool take = p.state == Peer::State::Untried || (p.state == Peer::State::Ready && lasting(in.ours, in.peer) &&
                                                        !p.outLasting && p.out.queue.empty());
  if (!take) return;
  const int fd = ::fcntl(in.fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return;  // we connect ourselves when we first send, or keep the other
  const int before = p.out.fd;
  p.out.fd = fd;
  p.state = Peer::State::Ready;
  p.outLasting = lasting(in.ours, in.peer);
  in.outFd = fd;
  if (before >= 0) {
    ::close(before);
    for (auto& other : incoming_) {
      if (other->outFd == before && other->peer == in.peer) other->outFd = -1;
    }
  }
  log::get("transport")
      ->debug("bulk data connection {} rank {} at {} carries our frames to it", in.ours ? "to" : "from", in.peer,
              in.from);
}

bool BulkLink::takeStagedFrames(Incoming& in) {
  while (in.state == Incoming::State::Header && in.stagedEnd - in.stagedBegin >= sizeof(WireHeader)) {
    std::memcpy(&in.header, in.staged.get() + in.stagedBegin, sizeof(WireHeader));
    in.stagedBegin += sizeof(WireHeader);
    const uint8_t* whole =
        in.stagedEnd - in.stagedBegin >= in.header.payloadBytes ? in.staged.get() + in.stagedBegin : nullptr;
    if (!beginFrame(in, whole)) return false;
    if (in.lent != nullptr) {
      in.stagedBegin += static_cast<std::size_t>(in.header.payloadBytes);
      finishFrame(in);
      continue;
    }
    const std::size_t take = std::min<std::size_t>(in.stagedEnd - in.stagedBegin, in.header.payloadBytes);
    if (take > 0) std::memcpy(in.target, in.staged.get() + in.stagedBegin, take);
    in.stagedBegin += take;
    in.got = take;
    if (in.got == in.header.payloadBytes) finishFrame(in);
  }
  if (in.stagedBegin == in.stagedEnd) in.stagedBegin = in.stagedEnd = 0;
  return true;
}

bool BulkLink::beginFrame(Incoming& in, const uint8_t* whole) {
  const WireHeader& h = in.header;
  std::string why;
  if (h.magic != kWireMagic || h.version != kWireVersion) {
    why = "not a wire header";
  } else if (h.jobHash != jobHash_) {
    why = "a frame for another job";
  } else if (h.payloadBytes > kMaxPayloadBytes) {
    why = "a payload of " + std::to_string(h.payloadBytes) + " bytes";
  }
  void* where = nullptr;
  if (why.empty() && !handlers_.place(in.peer, h, where)) why = "a frame the receiver refused";
  if (!why.empty()) {
    log::get("transport")->warn("dropped the bulk data connection from rank {} at {}: {}", in.peer, in.from, why);
    closeIncoming(in, why);
    return false;
  }
  in.placed = where != nullptr;
  if (!in.placed && h.payloadBytes > 0) {
    if (whole != nullptr) {
      in.lent = whole;
    } else {
      in.scratch = PayloadPool::take(static_cast<std::size_t>(h.payloadBytes));
      where = in.scratch.data();
    }
  }
  in.target = static_cast<uint8_t*>(where);
  in.got = 0;
  in.state = Incoming::State::Payload;
  return true;
}

void BulkLink::finishFrame(Incoming& in) {
  WireMessage message{in.header, std::move(in.scratch), in.placed, in.lent};
  in.scratch = zmq::message_t();
  in.lent = nullptr;
  in.state = Incoming::State::Header;
  in.got = 0;
  in.target = nullptr;
  ++deliveredFrames_;
  handlers_.deliver(in.peer, std::move(message));
}

}  // namespace zmpi::transport
