#pragma once
// Authentication (and encryption) of zmq links with CURVE, keyed by a job secret.
//
// Every job has one secret (zmpirun makes it with libsodium's randombytes; see README,
// "Failure and security model"). From it, every process of the job derives the same two
// CURVE keypairs with libsodium (crypto_kdf subkeys as seeds of crypto_box_seed_keypair):
// one for the servers (the rank inboxes, the rendezvous) and one for the clients. A
// server accepts a connection only when the ZAP handler (ZapAuthenticator) sees the
// job's client public key, which only a holder of the secret can prove (CURVE's
// handshake proves possession of the secret key). A stranger's plain (NULL) or
// wrong-key connection never gets a single frame through to zmpi's code.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "transport/service_thread.h"
#include "transport/socket.h"

namespace zmpi::transport {

struct CurveKeys {
  std::array<uint8_t, 32> serverPublic{};
  std::array<uint8_t, 32> serverSecret{};
  std::array<uint8_t, 32> clientPublic{};
  std::array<uint8_t, 32> clientSecret{};
  ~CurveKeys();  // wipes the secret halves
};

// At least this many bytes of secret (as the agents' secret, runtime/common/secret.h).
inline constexpr size_t kMinJobSecretBytes = 16;

// Derives the job's keypairs. Throws TransportError if the secret is shorter than
// kMinJobSecretBytes or libsodium cannot be initialised.
std::shared_ptr<const CurveKeys> deriveCurveKeys(std::string_view secret);

// True when this libzmq can do CURVE (zmq_has("curve")).
bool curveAvailable();

// Applies the keys to a socket before it binds (server) or connects (client).
void applyCurve(zmq::socket_t& socket, const CurveKeys& keys, bool server);

// The ZAP handler of this process's context (inproc://zeromq.zap.01): accepts CURVE
// clients whose public key is the job's client key, refuses everything else (logged,
// rate-limited). Create it before binding any CURVE server socket and destroy it before
// the context closes; stop() is explicit (a control message), as for every server.
class ZapAuthenticator {
 public:
  explicit ZapAuthenticator(std::shared_ptr<const CurveKeys> keys);
  ~ZapAuthenticator();
  ZapAuthenticator(const ZapAuthenticator&) = delete;
  ZapAuthenticator& operator=(const ZapAuthenticator&) = delete;

  uint64_t acceptedCount() const { return accepted_.load(); }
  uint64_t refusedCount() const { return refused_.load(); }
  void stop();

 private:
  void serve(Socket handler, Socket control);

  std::shared_ptr<const CurveKeys> keys_;
  std::atomic<uint64_t> accepted_{0};
  std::atomic<uint64_t> refused_{0};
  ServiceThread service_;
};

}  // namespace zmpi::transport
