#include "transport/bulk_handshake.h"

#include <poll.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace zmpi::transport::bulk {
namespace {

constexpr char kMagic[8] = {'Z', 'M', 'P', 'I', 'B', 'L', 'K', '1'};
constexpr char kServerLabel[] = "zmpi bulk server";
constexpr char kClientLabel[] = "zmpi bulk client";
static_assert(crypto_auth_hmacsha512256_BYTES == kMacBytes && crypto_auth_hmacsha512256_KEYBYTES == kKeyBytes);

// MAC(key, label | hello | serverNonce): the one construction both proofs use.
void mac(const Key& key, const char* label, const HelloBytes& hello, const uint8_t* serverNonce, uint8_t* out) {
  crypto_auth_hmacsha512256_state state;
  crypto_auth_hmacsha512256_init(&state, key.data(), key.size());
  crypto_auth_hmacsha512256_update(&state, reinterpret_cast<const unsigned char*>(label), std::strlen(label) + 1);
  crypto_auth_hmacsha512256_update(&state, hello.data(), hello.size());
  crypto_auth_hmacsha512256_update(&state, serverNonce, kNonceBytes);
  crypto_auth_hmacsha512256_final(&state, out);
  sodium_memzero(&state, sizeof state);
}

template <typename T>
void put(uint8_t* at, T value) {
  std::memcpy(at, &value, sizeof value);  // little-endian hosts only, as the wire header
}

template <typename T>
T get(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

int remainingMs(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1000 * 60));
}

// Waits for `events` on fd until the deadline; empty on readiness.
std::string await(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const int ms = remainingMs(deadline);
    if (ms == 0) return "timed out";
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, ms);
    if (n > 0) return {};
    if (n < 0 && errno != EINTR) return std::string("poll: ") + std::strerror(errno);
  }
}

}  // namespace

Hello makeHello(uint64_t jobHash, uint32_t clientRank, uint32_t serverRank) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  Hello hello{jobHash, clientRank, serverRank, {}};
  randombytes_buf(hello.clientNonce.data(), hello.clientNonce.size());
  return hello;
}

HelloBytes encode(const Hello& hello) {
  HelloBytes bytes{};
  std::memcpy(bytes.data(), kMagic, sizeof kMagic);
  put(bytes.data() + 8, hello.jobHash);
  put(bytes.data() + 16, hello.clientRank);
  put(bytes.data() + 20, hello.serverRank);
  std::memcpy(bytes.data() + 24, hello.clientNonce.data(), kNonceBytes);
  return bytes;
}

bool decodeHello(const HelloBytes& bytes, uint64_t jobHash, uint32_t serverRank, Hello& hello, std::string& why) {
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    why = "not a zmpi bulk connection (bad magic)";
    return false;
  }
  hello.jobHash = get<uint64_t>(bytes.data() + 8);
  hello.clientRank = get<uint32_t>(bytes.data() + 16);
  hello.serverRank = get<uint32_t>(bytes.data() + 20);
  std::memcpy(hello.clientNonce.data(), bytes.data() + 24, kNonceBytes);
  if (hello.jobHash != jobHash) {
    why = "a connection for another job";
    return false;
  }
  if (hello.serverRank != serverRank) {
    why = "a connection for rank " + std::to_string(hello.serverRank) + ", not this one";
    return false;
  }
  return true;
}

ReplyBytes makeReply(const Key& key, const HelloBytes& hello) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  ReplyBytes reply{};
  randombytes_buf(reply.data(), kNonceBytes);
  mac(key, kServerLabel, hello, reply.data(), reply.data() + kNonceBytes);
  return reply;
}

bool answerReply(const Key& key, const HelloBytes& hello, const ReplyBytes& reply, ProofBytes& proof) {
  uint8_t expected[kMacBytes];
  mac(key, kServerLabel, hello, reply.data(), expected);
  if (sodium_memcmp(expected, reply.data() + kNonceBytes, kMacBytes) != 0) return false;
  mac(key, kClientLabel, hello, reply.data(), proof.data());
  return true;
}

bool checkProof(const Key& key, const HelloBytes& hello, const ReplyBytes& reply, const ProofBytes& proof) {
  uint8_t expected[kMacBytes];
  mac(key, kClientLabel, hello, reply.data(), expected);
  return sodium_memcmp(expected, proof.data(), kMacBytes) == 0;
}

std::string readFully(int fd, void* data, std::size_t bytes, std::chrono::steady_clock::time_point deadline) {
  auto* at = static_cast<uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t n = ::recv(fd, at, bytes, MSG_DONTWAIT);
    if (n > 0) {
      at += n;
      bytes -= static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return "the peer closed the connection";
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return std::string("recv: ") + std::strerror(errno);
    if (auto why = await(fd, POLLIN, deadline); !why.empty()) return why;
  }
  return {};
}

std::string writeFully(int fd, const void* data, std::size_t bytes, std::chrono::steady_clock::time_point deadline) {
  const auto* at = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(fd, at, bytes, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      at += n;
      bytes -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return std::string("send: ") + std::strerror(errno);
    if (auto why = await(fd, POLLOUT, deadline); !why.empty()) return why;
  }
  return {};
}

std::string clientHandshake(int fd, const Key& key, const Hello& hello,
                            std::chrono::steady_clock::time_point deadline) {
  const HelloBytes helloBytes = encode(hello);
  if (auto why = writeFully(fd, helloBytes.data(), helloBytes.size(), deadline); !why.empty()) {
    return "sending the hello: " + why;
  }
  ReplyBytes reply{};
  if (auto why = readFully(fd, reply.data(), reply.size(), deadline); !why.empty()) {
    return "reading the server's reply: " + why;
  }
  ProofBytes proof{};
  if (!answerReply(key, helloBytes, reply, proof)) return "the server does not hold this job's key";
  if (auto why = writeFully(fd, proof.data(), proof.size(), deadline); !why.empty()) {
    return "sending the proof: " + why;
  }
  uint8_t accept = 0;
  if (auto why = readFully(fd, &accept, 1, deadline); !why.empty()) return "awaiting acceptance: " + why;
  if (accept != kAccept) return "the server refused the proof";
  return {};
}

}  // namespace zmpi::transport::bulk
