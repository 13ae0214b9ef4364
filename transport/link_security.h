#pragma once
// Authentication, and optionally encryption, of zmq links, keyed by a job secret.
//
// Every job has one secret (zmpirun makes it with libsodium's randombytes; see README,
// "Failure and security model"). From it every process of the job derives, with
// libsodium only (crypto_generichash, crypto_kdf, crypto_box_seed_keypair), what its
// links need. A server socket (a rank inbox, a rendezvous) accepts a connection only when
// the process's ZAP handler (ZapAuthenticator) sees the job's credentials; a client proves
// them. There are two modes, the same for every link of a job:
//
//  - authenticated (the default): zmq PLAIN. The client's "password" is a 32-byte token,
//    a libsodium KDF subkey of the secret (one-way: it reveals neither the secret nor the
//    CURVE keys). The ZAP handler compares it in constant time (sodium_memcmp). Frames
//    then travel as plain zmq, at plain zmq's speed. This keeps out every process that
//    does not hold the secret and cannot read the traffic: other users on the hosts,
//    other jobs (each has its own secret), anything connecting from the network. It does
//    NOT protect against someone who can observe the traffic: PLAIN sends the token in
//    the clear once per connection, so an eavesdropper on the network between hosts
//    (loopback and ipc need root) could replay it and join this job's links, and could
//    read or alter messages anyway. zmq offers no mechanism that proves a key without
//    encrypting (PLAIN has no server challenge), so the stronger guarantee costs the
//    encryption below.
//  - encrypted (ZMPI_ENCRYPT=1, zmpirun --encrypt): zmq CURVE. Two keypairs seeded from
//    KDF subkeys of the secret, one for servers and one for clients; the ZAP handler
//    accepts only the job's client public key, whose possession CURVE's handshake proves.
//    Every frame is encrypted and authenticated (XSalsa20-Poly1305), so eavesdroppers see
//    nothing and can neither replay nor alter. Cost: bench/CURVE.md.
//
// A stranger (no secret, another job's secret, the other mode, not ZMTP at all) never
// gets a single frame through to zmpi's code; its refusal is logged, rate-limited.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "transport/socket.h"

namespace zmpi::transport {

struct LinkKeys {
  bool encrypt = false;
  // Encrypted mode: the job's CURVE keypairs (zero otherwise).
  std::array<uint8_t, 32> serverPublic{};
  std::array<uint8_t, 32> serverSecret{};
  std::array<uint8_t, 32> clientPublic{};
  std::array<uint8_t, 32> clientSecret{};
  // Authenticated mode: the PLAIN token (zero otherwise).
  std::array<uint8_t, 32> token{};
  // Authenticated mode: the key of the bulk data connections' challenge-response
  // (transport/bulk_handshake.h; zero otherwise: encrypted jobs keep their data on CURVE).
  std::array<uint8_t, 32> bulkKey{};
  // The ZAP domain of this job's server sockets: "zmpi-<32 hex digits>-plain|curve", the
  // digits from another KDF subkey (unrelated to token and keys). It selects the job's
  // credentials in the process-wide ZAP handler, so worlds of several jobs can live in
  // one process.
  std::string zapDomain;
  ~LinkKeys();  // wipes the secret parts
};

// At least this many bytes of secret (as the agents' secret, runtime/common/secret.h).
inline constexpr size_t kMinJobSecretBytes = 16;

// The variable that asks for encryption (zmpirun sets it for every rank of a job).
inline constexpr const char* kEncryptVariable = "ZMPI_ENCRYPT";

// Derives the job's credentials for one mode. Throws TransportError if the secret is
// shorter than kMinJobSecretBytes, libsodium cannot be initialised, or encryption is
// asked of a libzmq without CURVE.
std::shared_ptr<const LinkKeys> deriveLinkKeys(std::string_view secret, bool encrypt);

// ZMPI_ENCRYPT's value: unset, "", 0, no, off, false -> false; 1, yes, on, true -> true;
// anything else throws TransportError (a typo must not silently turn encryption off).
bool encryptionRequested(const char* value);

// True when this libzmq can do CURVE (zmq_has("curve")).
bool curveAvailable();

// Applies the credentials to a socket before it binds (server) or connects (client).
void applyLinkKeys(zmq::socket_t& socket, const LinkKeys& keys, bool server);

// Enrols one job's credentials in the process-wide ZAP handler (inproc://zeromq.zap.01:
// zmq allows one per context), which answers every server socket of the process and
// accepts a client only with the credentials enrolled for that socket's ZAP domain;
// everything else is refused (logged, rate-limited). The handler thread starts with the
// first enrolment and stops with the last, so create one before binding a server socket
// with these keys and destroy it (or stop()) before the context closes. Two enrolments of
// the same credentials share the domain and its counters.
class ZapAuthenticator {
 public:
  explicit ZapAuthenticator(std::shared_ptr<const LinkKeys> keys);
  ~ZapAuthenticator();
  ZapAuthenticator(const ZapAuthenticator&) = delete;
  ZapAuthenticator& operator=(const ZapAuthenticator&) = delete;

  // Connections of this domain accepted / refused so far.
  uint64_t acceptedCount() const;
  uint64_t refusedCount() const;
  // Withdraws the enrolment (idempotent); with the last one the handler thread ends.
  void stop();

  struct Counters {
    std::atomic<uint64_t> accepted{0};
    std::atomic<uint64_t> refused{0};
  };

 private:
  std::string domain_;
  std::shared_ptr<Counters> counters_;
  bool enrolled_ = false;
};

}  // namespace zmpi::transport
