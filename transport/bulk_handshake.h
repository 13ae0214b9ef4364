#pragma once
// The challenge-response that opens a bulk data connection (transport/bulk_link.h): both
// ends prove they hold the job's bulk key (a KDF subkey of the job secret, LinkKeys::bulkKey)
// before a single data byte is accepted. Built from libsodium only: nonces from
// randombytes_buf, MACs with crypto_auth (HMAC-SHA-512-256), compared in constant time.
//
//   client -> server  Hello  (56 B): magic "ZMPIBLK1", job hash, client rank, server rank,
//                                    client nonce (32 B)
//   server -> client  Reply  (64 B): server nonce (32 B), MAC(key, "server" | Hello | server nonce)
//   client -> server  Proof  (32 B): MAC(key, "client" | Hello | server nonce)
//   server -> client  Accept  (1 B): kAccept, only after the proof checked out
//
// The client sends data only after the Accept: a connection it uses is known to be taken.
//
// Each side MACs the other's fresh nonce, so a recorded exchange cannot be replayed; the
// two labels keep one side's MAC from serving as the other's (reflection). The ranks and
// the job hash are inside every MAC, so a proof for one pair or job is worthless for another.
// These are pure functions on byte arrays (the I/O is the caller's), so the checks are
// unit-tested without sockets.
#include <array>
#include <chrono>
#include <cstdint>
#include <string>

namespace zmpi::transport::bulk {

inline constexpr std::size_t kKeyBytes = 32;
inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kMacBytes = 32;
using Key = std::array<uint8_t, kKeyBytes>;

struct Hello {
  uint64_t jobHash = 0;
  uint32_t clientRank = 0;
  uint32_t serverRank = 0;
  std::array<uint8_t, kNonceBytes> clientNonce{};
};
inline constexpr std::size_t kHelloBytes = 8 + 8 + 4 + 4 + kNonceBytes;
inline constexpr std::size_t kReplyBytes = kNonceBytes + kMacBytes;
inline constexpr std::size_t kProofBytes = kMacBytes;
inline constexpr uint8_t kAccept = 'A';
using HelloBytes = std::array<uint8_t, kHelloBytes>;
using ReplyBytes = std::array<uint8_t, kReplyBytes>;
using ProofBytes = std::array<uint8_t, kProofBytes>;

// Client, step 1: a Hello with a fresh nonce.
Hello makeHello(uint64_t jobHash, uint32_t clientRank, uint32_t serverRank);
HelloBytes encode(const Hello& hello);
// Server: parses a Hello; false (and `why`) if the magic, the job or our rank is wrong.
bool decodeHello(const HelloBytes& bytes, uint64_t jobHash, uint32_t serverRank, Hello& hello, std::string& why);

// Server, step 2: a fresh nonce and our MAC over it; keep the result to check the Proof.
ReplyBytes makeReply(const Key& key, const HelloBytes& hello);
// Client, step 3: checks the server's MAC; on success returns true and fills `proof`.
bool answerReply(const Key& key, const HelloBytes& hello, const ReplyBytes& reply, ProofBytes& proof);
// Server, step 4: the client's proof over our nonce (from the reply we sent).
bool checkProof(const Key& key, const HelloBytes& hello, const ReplyBytes& reply, const ProofBytes& proof);

// Runs the client side on a connected, blocking or non-blocking socket, each step bounded
// by `deadline`. Returns an empty string on success, else why it failed (the socket is
// left for the caller to close).
std::string clientHandshake(int fd, const Key& key, const Hello& hello, std::chrono::steady_clock::time_point deadline);

// Reads/writes exactly `bytes` on `fd` (which may be non-blocking), polling until
// `deadline`; an empty string on success, else the reason (timeout, EOF, errno).
std::string readFully(int fd, void* data, std::size_t bytes, std::chrono::steady_clock::time_point deadline);
std::string writeFully(int fd, const void* data, std::size_t bytes, std::chrono::steady_clock::time_point deadline);

}  // namespace zmpi::transport::bulk
