// Bulk data connections (transport/bulk_link.h, bulk_handshake.h): the challenge-response
// accepts the job's key and nothing else (wrong key, garbage, silence, a short hello), in
// bounded time; frames of every size around the header and piece boundaries arrive intact
// and in order, in both directions at once; a peer that vanishes mid-frame is reported,
// naming it.
#include "transport/bulk_link.h"

#include <netinet/in.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "transport/bulk_handshake.h"

namespace zmpi::transport::test {
namespace {

constexpr uint64_t kJob = 0x1234;

bulk::Key keyOf(uint8_t seed) {
  bulk::Key key;
  key.fill(seed);
  return key;
}

// What one side of a test received, in order; waits are bounded.
class Receiver {
 public:
  BulkLink::Handlers handlers() {
    BulkLink::Handlers h;
    h.place = [this](int, const WireHeader& header, void*& where) {
      std::lock_guard lock(mutex_);
      if (header.kind == kRefusedKind) return false;
      // Even frame numbers are placed in a buffer of ours, odd ones arrive as payloads.
      const uint64_t number = numberOf(header);
      if (number % 2 == 0) {
        auto& buffer = placed_[number];
        buffer.resize(static_cast<std::size_t>(header.payloadBytes));
        where = buffer.empty() ? nullptr : buffer.data();
      }
      return true;
    };
    h.deliver = [this](int peer, WireMessage&& message) {
      std::lock_guard lock(mutex_);
      const uint64_t number = numberOf(message.header);
      std::string bytes;
      if (message.placed) {
        bytes.assign(placed_[number].begin(), placed_[number].end());
      } else {
        bytes.assign(static_cast<const char*>(message.data()), message.size());
      }
      frames_.push_back({peer, number, std::move(bytes), std::this_thread::get_id()});
      changed_.notify_all();
    };
    h.failed = [this](int peer, const std::string& why) {
      std::lock_guard lock(mutex_);
      failures_.push_back(why);
      changed_.notify_all();
    };
    return h;
  }

  bool waitFrames(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [&] { return frames_.size() >= count; });
  }
  bool waitFailure() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return !failures_.empty(); });
  }

  struct Frame {
    int peer;
    uint64_t number;
    std::string bytes;
    std::thread::id thread;  // that delivered it
  };
  std::vector<Frame> frames() {
    std::lock_guard lock(mutex_);
    return frames_;
  }
  std::vector<std::string> failures() {
    std::lock_guard lock(mutex_);
    return failures_;
  }

  static constexpr uint16_t kRefusedKind = 99;
  static uint64_t numberOf(const WireHeader& header) {
    uint64_t number;
    std::memcpy(&number, header.envelope.data(), sizeof number);
    return number;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<uint64_t, std::vector<char>> placed_;
  std::vector<Frame> frames_;
  std::vector<std::string> failures_;
};

WireHeader frameHeader(uint64_t number, std::size_t bytes, uint16_t kind = 5) {
  WireHeader header;
  header.kind = kind;
  header.jobHash = kJob;
  header.payloadBytes = bytes;
  std::memcpy(header.envelope.data(), &number, sizeof number);
  return header;
}

std::string pattern(uint64_t number, std::size_t bytes) {
  std::string text(bytes, '\0');
  std::mt19937_64 random(number * 7919 + bytes);
  for (auto& c : text) c = static_cast<char>(random());
  return text;
}

// Two ranks of a world of 2 in one process, each listening on loopback.
struct Pair {
  explicit Pair(const bulk::Key& key0 = keyOf(1), const bulk::Key& key1 = keyOf(1))
      : a(kJob, 0, 2, key0), b(kJob, 1, 2, key1) {
    portA = a.listen("127.0.0.1");
    portB = b.listen("127.0.0.1");
    a.setPeer(1, "127.0.0.1", portB);
    b.setPeer(0, "127.0.0.1", portA);
    a.start(atA.handlers());
    b.start(atB.handlers());
  }
  Receiver atA, atB;
  BulkLink a, b;
  uint16_t portA = 0, portB = 0;
};

// A blocking send: true once `done` ran.
bool sendAndWait(BulkLink& link, int peer, uint64_t number, const std::string& bytes) {
  std::promise<void> sent;
  auto future = sent.get_future();
  if (!link.send(peer, frameHeader(number, bytes.size()), bytes.data(), bytes.size(), [&] { sent.set_value(); })) {
    return false;
  }
  return future.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
}

int rawConnect(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  timeval timeout{10, 0};  // a refused connection is closed well before this
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return fd;
}

// True when the server closed `fd` (EOF or reset), false on the receive timeout.
bool closedByServer(int fd) {
  char buffer[256];
  for (;;) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n == 0 || (n < 0 && errno == ECONNRESET)) return true;
    if (n < 0) return false;  // timed out
  }
}

// Bounded: what is counted follows an exchange the test already saw through.
bool waitCount(const std::function<uint64_t()>& counter, uint64_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (counter() < count) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

bool waitRefused(const BulkLink& link, uint64_t count) {
  return waitCount([&] { return link.refusedCount(); }, count);
}

// The accepting side counts a connection once its frames to the client may take it.
bool waitAccepted(const BulkLink& link, uint64_t count) {
  return waitCount([&] { return link.acceptedCount(); }, count);
}

}  // namespace

TEST_CASE("bulk handshake: the right key is accepted both ways, a wrong one by neither") {
  REQUIRE(sodium_init() >= 0);
  const bulk::Key key = keyOf(1), other = keyOf(2);
  const auto hello = bulk::encode(bulk::makeHello(kJob, 3, 5));
  bulk::Hello parsed;
  std::string why;
  REQUIRE(bulk::decodeHello(hello, kJob, 5, parsed, why));
  CHECK(parsed.clientRank == 3);
  const auto reply = bulk::makeReply(key, hello);
  bulk::ProofBytes proof{};
  REQUIRE(bulk::answerReply(key, hello, reply, proof));
  CHECK(bulk::checkProof(key, hello, reply, proof));

  SECTION("a client without the key cannot check the server, nor prove itself") {
    bulk::ProofBytes forged{};
    CHECK_FALSE(bulk::answerReply(other, hello, reply, forged));
    const auto otherReply = bulk::makeReply(other, hello);
    REQUIRE(bulk::answerReply(other, hello, otherReply, forged));
    CHECK_FALSE(bulk::checkProof(key, hello, reply, forged));
  }
  SECTION("the server's MAC is not a client proof (reflection), nor valid for another nonce") {
    bulk::ProofBytes reflected{};
    std::memcpy(reflected.data(), reply.data() + bulk::kNonceBytes, bulk::kMacBytes);
    CHECK_FALSE(bulk::checkProof(key, hello, reply, reflected));
    const auto fresh = bulk::makeReply(key, hello);
    CHECK_FALSE(bulk::checkProof(key, hello, fresh, proof));
  }
  SECTION("a hello for another job, another rank or with a bad magic is refused") {
    CHECK_FALSE(bulk::decodeHello(hello, kJob + 1, 5, parsed, why));
    CHECK_FALSE(bulk::decodeHello(hello, kJob, 4, parsed, why));
    auto garbage = hello;
    garbage[0] = 'X';
    CHECK_FALSE(bulk::decodeHello(garbage, kJob, 5, parsed, why));
    CHECK(why.find("magic") != std::string::npos);
  }
}

TEST_CASE("bulk link: frames of every size arrive intact, placed or not") {
  Pair pair;
  const std::vector<std::size_t> sizes = {
      0, 1, 71, 72, 73, 4095, 65536, (1u << 20) - 1, 1u << 20, (1u << 20) + 1, 3u << 20, 16u << 20};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string bytes = pattern(i, sizes[i]);
    REQUIRE(sendAndWait(pair.a, 1, i, bytes));
  }
  REQUIRE(pair.atB.waitFrames(sizes.size()));
  const auto frames = pair.atB.frames();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    INFO("frame " << i << " of " << sizes[i] << " bytes");
    CHECK(frames[i].peer == 0);
    CHECK(frames[i].number == i);
    CHECK(frames[i].bytes == pattern(i, sizes[i]));
  }
  CHECK(pair.b.acceptedCount() == 1);  // one connection for all of them
  CHECK(pair.atB.failures().empty());
}

TEST_CASE("bulk link: the reply takes the connection it answers, one per pair") {
  Pair pair;
  REQUIRE(sendAndWait(pair.a, 1, 0, "ping"));
  REQUIRE(pair.atB.waitFrames(1));
  // Small and large, placed and not: B writes them on A's connection, A reads them there.
  const std::vector<std::size_t> sizes = {5, 70000, 3u << 20};
  for (std::size_t i = 0; i < sizes.size(); ++i) REQUIRE(sendAndWait(pair.b, 0, 1 + i, pattern(1 + i, sizes[i])));
  REQUIRE(pair.atA.waitFrames(sizes.size()));
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto frame = pair.atA.frames()[i];
    CHECK(frame.peer == 1);
    CHECK(frame.number == 1 + i);
    CHECK(frame.bytes == pattern(1 + i, sizes[i]));
  }
  CHECK(pair.b.acceptedCount() == 1);
  CHECK(pair.a.acceptedCount() == 0);  // B never connected
  CHECK(pair.atA.failures().empty());
  CHECK(pair.atB.failures().empty());
}

TEST_CASE("bulk link: frames move to the lower rank's connection when both ranks made one") {
  Pair pair;
  // B (rank 1) connects first, so its frames to A take its own connection.
  REQUIRE(sendAndWait(pair.b, 0, 0, "on B's connection"));
  REQUIRE(pair.atA.waitFrames(1));
  // Then rank 0 makes one too (played here by a raw client holding the key, as A would if
  // its first message had crossed B's): B's frames move to it, rank 0's connection.
  const int fd = rawConnect(pair.portB);
  REQUIRE(bulk::clientHandshake(fd, keyOf(1), bulk::makeHello(kJob, 0, 1),
                                std::chrono::steady_clock::now() + std::chrono::seconds(10))
              .empty());
  REQUIRE(waitAccepted(pair.b, 1));
  REQUIRE(sendAndWait(pair.b, 0, 7, "moved"));
  WireHeader header;
  REQUIRE(::recv(fd, &header, sizeof header, MSG_WAITALL) == static_cast<ssize_t>(sizeof header));
  CHECK(Receiver::numberOf(header) == 7);
  REQUIRE(header.payloadBytes == 5);
  char payload[5];
  REQUIRE(::recv(fd, payload, sizeof payload, MSG_WAITALL) == 5);
  CHECK(std::string(payload, 5) == "moved");
  CHECK(pair.atA.frames().size() == 1);
  // Its end ends B's writing to rank 0: the next frame finds no connection.
  ::close(fd);
  const auto closing = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool refused = false;
  while (!refused && std::chrono::steady_clock::now() < closing) {
    refused = !pair.b.sendCopy(0, frameHeader(8, 3), "end", 3);
    if (!refused) std::this_thread::yield();
  }
  CHECK(refused);
  CHECK(pair.atB.failures().empty());
}

TEST_CASE("bulk link: payloads larger than one write's limit go out in pieces, intact") {
  // ZMPI_BULK_WRITE_BYTES caps each sendmsg (the default, just under 1 MiB, is crossed by
  // the sizes of the test above); a small cap makes every frame above it many writes, the
  // first with the header.
  ::setenv("ZMPI_BULK_WRITE_BYTES", "1000", 1);
  Pair pair;
  ::unsetenv("ZMPI_BULK_WRITE_BYTES");
  const std::vector<std::size_t> sizes = {0, 1, 999, 1000, 1001, 4096, 65536 + 7, 1u << 20};
  for (std::size_t i = 0; i < sizes.size(); ++i) REQUIRE(sendAndWait(pair.a, 1, i, pattern(i, sizes[i])));
  REQUIRE(pair.atB.waitFrames(sizes.size()));
  const auto frames = pair.atB.frames();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    INFO("frame " << i << " of " << sizes[i] << " bytes");
    CHECK(frames[i].number == i);
    CHECK(frames[i].bytes == pattern(i, sizes[i]));
  }
  CHECK(pair.atB.failures().empty());
}

TEST_CASE("bulk link: a write limit that is not a number is refused, naming it") {
  ::setenv("ZMPI_BULK_WRITE_BYTES", "1MiB", 1);
  CHECK_THROWS_WITH(BulkLink(kJob, 0, 2, keyOf(1)),
                    Catch::Contains("ZMPI_BULK_WRITE_BYTES=1MiB is not a whole number of bytes"));
  ::unsetenv("ZMPI_BULK_WRITE_BYTES");
}

TEST_CASE("bulk link: many frames in flight both ways keep their order") {
  Pair pair;
  // One connection, both directions on it (A's, which B takes for its frames once it has
  // accepted it). Two connections made at once may reorder frames once, when the higher
  // rank moves to the lower rank's ("frames move to the lower rank's connection").
  REQUIRE(pair.a.prepare(1));
  REQUIRE(waitAccepted(pair.b, 1));
  constexpr int kFrames = 40;
  std::vector<std::string> payloads;
  for (int i = 0; i < kFrames; ++i) payloads.push_back(pattern(i, static_cast<std::size_t>(i * 97 * 1024 + i)));
  std::atomic<int> sent{0};
  std::promise<void> allSent;
  auto one = [&] {
    if (sent.fetch_add(1) + 1 == 2 * kFrames) allSent.set_value();
  };
  // Without waiting: the sockets fill and the I/O threads finish the writes.
  std::thread fromB([&] {
    for (int i = 0; i < kFrames; ++i) {
      REQUIRE(pair.b.send(0, frameHeader(i, payloads[i].size()), payloads[i].data(), payloads[i].size(), one));
    }
  });
  for (int i = 0; i < kFrames; ++i) {
    REQUIRE(pair.a.send(1, frameHeader(i, payloads[i].size()), payloads[i].data(), payloads[i].size(), one));
  }
  fromB.join();
  REQUIRE(allSent.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  REQUIRE(pair.atA.waitFrames(kFrames));
  REQUIRE(pair.atB.waitFrames(kFrames));
  for (Receiver* receiver : {&pair.atA, &pair.atB}) {
    const auto frames = receiver->frames();
    for (int i = 0; i < kFrames; ++i) {
      CHECK(frames[i].number == static_cast<uint64_t>(i));
      CHECK(frames[i].bytes == payloads[i]);
    }
  }
}

TEST_CASE("bulk link: sendCopy's buffer may be reused at once, even behind a queued frame") {
  Pair pair;
  // A large frame first: the socket takes part of it, the rest waits for the I/O thread,
  // and the small frames behind it wait too -- in copies, since their buffer is scribbled
  // over as soon as sendCopy returns.
  const std::string big = pattern(0, 16u << 20);
  std::promise<void> bigSent;
  REQUIRE(pair.a.send(1, frameHeader(0, big.size()), big.data(), big.size(), [&] { bigSent.set_value(); }));
  constexpr int kSmall = 20;
  std::string buffer;
  for (int i = 1; i <= kSmall; ++i) {
    buffer = pattern(static_cast<uint64_t>(i), 1000 + static_cast<std::size_t>(i));
    REQUIRE(pair.a.sendCopy(1, frameHeader(static_cast<uint64_t>(i), buffer.size()), buffer.data(), buffer.size()));
    std::fill(buffer.begin(), buffer.end(), 'x');
  }
  REQUIRE(pair.atB.waitFrames(kSmall + 1));
  REQUIRE(bigSent.get_future().wait_for(std::chrono::seconds(20)) == std::future_status::ready);
  const auto frames = pair.atB.frames();
  CHECK(frames[0].bytes == big);
  for (int i = 1; i <= kSmall; ++i) {
    INFO("small frame " << i);
    CHECK(frames[static_cast<std::size_t>(i)].number == static_cast<uint64_t>(i));
    CHECK(frames[static_cast<std::size_t>(i)].bytes ==
          pattern(static_cast<uint64_t>(i), 1000 + static_cast<std::size_t>(i)));
  }
}

TEST_CASE("bulk link: a sender with the wrong key is refused and falls back") {
  Pair pair(keyOf(1), keyOf(2));
  const std::string bytes = pattern(1, 1000);
  CHECK_FALSE(pair.a.send(1, frameHeader(1, bytes.size()), bytes.data(), bytes.size(), [] {}));
  CHECK(waitRefused(pair.b, 1));
  CHECK(pair.b.acceptedCount() == 0);
  // Remembered: no second attempt.
  CHECK_FALSE(pair.a.send(1, frameHeader(2, bytes.size()), bytes.data(), bytes.size(), [] {}));
  CHECK(pair.b.refusedCount() == 1);
  CHECK(pair.atB.frames().empty());
}

TEST_CASE("bulk link: garbage, a short hello and silence are closed in bounded time") {
  ::setenv("ZMPI_BULK_HANDSHAKE_MS", "300", 1);
  Pair pair;
  ::unsetenv("ZMPI_BULK_HANDSHAKE_MS");
  const std::string probe = pattern(9, 10);
  REQUIRE(sendAndWait(pair.a, 1, 0, probe));  // the link works before the attacks
  const uint16_t port = pair.portB;

  SECTION("garbage") {
    const int fd = rawConnect(port);
    const std::string junk(bulk::kHelloBytes, 'x');
    REQUIRE(::send(fd, junk.data(), junk.size(), 0) == static_cast<ssize_t>(junk.size()));
    CHECK(closedByServer(fd));
    ::close(fd);
  }
  SECTION("a short hello, then nothing") {
    const int fd = rawConnect(port);
    REQUIRE(::send(fd, "ZMPIBLK1", 8, 0) == 8);
    CHECK(closedByServer(fd));
    ::close(fd);
  }
  SECTION("silence") {
    const int fd = rawConnect(port);
    CHECK(closedByServer(fd));
    ::close(fd);
  }
  SECTION("a correct hello, then a wrong proof") {
    const int fd = rawConnect(port);
    const auto hello = bulk::encode(bulk::makeHello(kJob, 0, 1));
    REQUIRE(::send(fd, hello.data(), hello.size(), 0) == static_cast<ssize_t>(hello.size()));
    bulk::ReplyBytes reply{};
    REQUIRE(::recv(fd, reply.data(), reply.size(), MSG_WAITALL) == static_cast<ssize_t>(reply.size()));
    const bulk::ProofBytes wrong{};
    REQUIRE(::send(fd, wrong.data(), wrong.size(), 0) == static_cast<ssize_t>(wrong.size()));
    CHECK(closedByServer(fd));
    ::close(fd);
  }
  CHECK(waitRefused(pair.b, 1));
  CHECK(pair.atB.failures().empty());
  // Nothing lost for the job: the authenticated link still carries data.
  const std::string after = pattern(10, 300000);
  REQUIRE(sendAndWait(pair.a, 1, 2, after));
  REQUIRE(pair.atB.waitFrames(2));
  CHECK(pair.atB.frames()[1].bytes == after);
}

TEST_CASE("bulk link: a peer gone mid-frame is reported, naming it, and one between frames is not") {
  Pair pair;
  const uint16_t port = pair.portB;
  const int fd = rawConnect(port);
  const auto hello = bulk::makeHello(kJob, 0, 1);
  REQUIRE(
      bulk::clientHandshake(fd, keyOf(1), hello, std::chrono::steady_clock::now() + std::chrono::seconds(10)).empty());
  SECTION("mid-frame") {
    const WireHeader header = frameHeader(1, 1 << 20);
    REQUIRE(::send(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header));
    const std::string part(1000, 'p');
    REQUIRE(::send(fd, part.data(), part.size(), 0) == static_cast<ssize_t>(part.size()));
    ::close(fd);
    REQUIRE(pair.atB.waitFailure());
    CHECK(pair.atB.failures()[0].find("rank 0") != std::string::npos);
    CHECK(pair.atB.frames().empty());
  }
  SECTION("a frame another kind than the receiver takes: the connection is dropped") {
    const WireHeader header = frameHeader(1, 10, Receiver::kRefusedKind);
    REQUIRE(::send(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header));
    CHECK(closedByServer(fd));
    // cppcheck-suppress doubleFree ; each SECTION runs in a pass of its own (Catch): one close per pass
    ::close(fd);
    CHECK(pair.atB.frames().empty());
  }
  SECTION("between frames") {
    const WireHeader header = frameHeader(1, 5);
    REQUIRE(::send(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header));
    REQUIRE(::send(fd, "hello", 5, 0) == 5);
    // cppcheck-suppress doubleFree ; each SECTION runs in a pass of its own (Catch): one close per pass
    ::close(fd);
    REQUIRE(pair.atB.waitFrames(1));
    CHECK(pair.atB.frames()[0].bytes == "hello");
    // The link stays usable and reports nothing: a legitimate sender after it.
    REQUIRE(sendAndWait(pair.a, 1, 2, "after"));
    REQUIRE(pair.atB.waitFrames(2));
    CHECK(pair.atB.failures().empty());
  }
}

TEST_CASE("bulk link: a waiter reads frames on its own thread and the I/O thread takes them back after") {
  Pair pair;
  const auto self = std::this_thread::get_id();
  // The connection is made and read by the I/O thread while nobody waits.
  REQUIRE(sendAndWait(pair.a, 1, 0, pattern(0, 100)));
  REQUIRE(pair.atB.waitFrames(1));
  CHECK(pair.atB.frames()[0].thread != self);

  // A waiter that has looked once owns the connection: every frame sent after that is read
  // on its thread, whole, whatever its size (staged, above the staging buffer, many
  // reads). A long linger keeps the I/O thread away between the looks.
  pair.b.setWaiterLinger(std::chrono::hours(1));
  pair.b.readAsWaiter(std::chrono::milliseconds(0));
  const std::vector<std::size_t> sizes = {8, 70000, 3u << 20, 0};
  std::thread sender([&] {
    for (std::size_t i = 0; i < sizes.size(); ++i) CHECK(sendAndWait(pair.a, 1, 1 + i, pattern(1 + i, sizes[i])));
  });
  uint64_t read = 0;
  for (int look = 0; look < 100000 && pair.atB.frames().size() < 1 + sizes.size(); ++look) {
    const auto result = pair.b.readAsWaiter(std::chrono::milliseconds(100));
    read += result.frames;
  }
  sender.join();
  REQUIRE(pair.atB.frames().size() == 1 + sizes.size());
  CHECK(read == sizes.size());
  CHECK(pair.b.framesReadByWaiters() == sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto frame = pair.atB.frames()[1 + i];
    INFO("frame of " << sizes[i] << " bytes");
    CHECK(frame.thread == self);
    CHECK(frame.number == 1 + i);
    CHECK(frame.bytes == pattern(1 + i, sizes[i]));
  }

  // Handed back (as a waiter about to sleep elsewhere does), the I/O thread reads again.
  pair.b.releaseToThread();
  REQUIRE(sendAndWait(pair.a, 1, 9, pattern(9, 5000)));
  REQUIRE(pair.atB.waitFrames(2 + sizes.size()));
  CHECK(pair.atB.frames().back().thread != self);
  CHECK(pair.atB.frames().back().bytes == pattern(9, 5000));

  // So it does once a waiter has not looked for the linger.
  pair.b.setWaiterLinger(std::chrono::milliseconds(1));
  pair.b.readAsWaiter(std::chrono::milliseconds(0));
  REQUIRE(sendAndWait(pair.a, 1, 10, pattern(10, 64)));
  REQUIRE(pair.atB.waitFrames(3 + sizes.size()));
  CHECK(pair.atB.frames().back().thread != self);
  CHECK(pair.atB.failures().empty());
}

TEST_CASE("bulk link: wakeWaiter ends a waiter's poll") {
  Pair pair;
  REQUIRE(sendAndWait(pair.a, 1, 0, pattern(0, 10)));  // a connection to poll
  REQUIRE(pair.atB.waitFrames(1));
  auto waiting = std::async(std::launch::async, [&] { return pair.b.readAsWaiter(std::chrono::hours(1)); });
  pair.b.wakeWaiter();  // before or during its poll: the eventfd stays readable until read
  REQUIRE(waiting.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
  const auto result = waiting.get();
  CHECK(result.woken);
  CHECK(result.frames == 0);
}

}  // namespace zmpi::transport::test
