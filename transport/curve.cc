#include "transport/curve.h"

#include <sodium.h>

#include <vector>
#include <zmq_addon.hpp>

#include "transport/errors.h"
#include "transport/log.h"

namespace zmpi::transport {
namespace {

constexpr char kKdfContext[crypto_kdf_CONTEXTBYTES + 1] = "zmpicurv";  // 8 bytes, libsodium's KDF context
constexpr uint64_t kServerKeyId = 1;
constexpr uint64_t kClientKeyId = 2;
constexpr char kZapEndpoint[] = "inproc://zeromq.zap.01";

void seedKeypair(const uint8_t master[crypto_kdf_KEYBYTES], uint64_t id, std::array<uint8_t, 32>& publicKey,
                 std::array<uint8_t, 32>& secretKey) {
  static_assert(crypto_box_PUBLICKEYBYTES == 32 && crypto_box_SECRETKEYBYTES == 32 && crypto_box_SEEDBYTES == 32);
  uint8_t seed[crypto_box_SEEDBYTES];
  crypto_kdf_derive_from_key(seed, sizeof seed, id, kKdfContext, master);
  crypto_box_seed_keypair(publicKey.data(), secretKey.data(), seed);
  sodium_memzero(seed, sizeof seed);
}

}  // namespace

CurveKeys::~CurveKeys() {
  sodium_memzero(serverSecret.data(), serverSecret.size());
  sodium_memzero(clientSecret.data(), clientSecret.size());
}

std::shared_ptr<const CurveKeys> deriveCurveKeys(std::string_view secret) {
  if (secret.size() < kMinJobSecretBytes) {
    throw TransportError("a job secret must have at least " + std::to_string(kMinJobSecretBytes) + " bytes");
  }
  if (sodium_init() < 0) throw TransportError("libsodium could not be initialised");
  uint8_t master[crypto_kdf_KEYBYTES];
  crypto_generichash(master, sizeof master, reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                     nullptr, 0);
  auto keys = std::make_shared<CurveKeys>();
  seedKeypair(master, kServerKeyId, keys->serverPublic, keys->serverSecret);
  seedKeypair(master, kClientKeyId, keys->clientPublic, keys->clientSecret);
  sodium_memzero(master, sizeof master);
  return keys;
}

bool curveAvailable() { return zmq_has("curve") != 0; }

void applyCurve(zmq::socket_t& socket, const CurveKeys& keys, bool server) {
  checked("configure CURVE on", server ? "a server socket" : "a client socket", [&] {
    if (server) {
      socket.set(zmq::sockopt::curve_server, 1);
      socket.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(keys.serverSecret.data(), 32));
      socket.set(zmq::sockopt::zap_domain, "zmpi");
    } else {
      socket.set(zmq::sockopt::curve_serverkey, zmq::const_buffer(keys.serverPublic.data(), 32));
      socket.set(zmq::sockopt::curve_publickey, zmq::const_buffer(keys.clientPublic.data(), 32));
      socket.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(keys.clientSecret.data(), 32));
    }
  });
}

ZapAuthenticator::ZapAuthenticator(std::shared_ptr<const CurveKeys> keys) : keys_(std::move(keys)) {
  Socket handler(zmq::socket_type::rep);
  handler.bind(kZapEndpoint);
  service_.start([this, h = std::move(handler)](Socket control) mutable { serve(std::move(h), std::move(control)); });
}

ZapAuthenticator::~ZapAuthenticator() { stop(); }

void ZapAuthenticator::stop() { service_.stop(); }

void ZapAuthenticator::serve(Socket handler, Socket control) {
  auto logger = log::get("transport");
  try {
    for (;;) {
      zmq::pollitem_t items[] = {{handler.raw().handle(), 0, ZMQ_POLLIN, 0},
                                 {control.raw().handle(), 0, ZMQ_POLLIN, 0}};
      zmq::poll(items, 2, std::chrono::milliseconds(-1));
      if (items[1].revents & ZMQ_POLLIN) return;
      if (!(items[0].revents & ZMQ_POLLIN)) continue;
      // ZAP 1.0 request: version, request id, domain, address, routing id, mechanism,
      // credentials (for CURVE: the client's 32-byte public key).
      std::vector<zmq::message_t> request;
      if (!zmq::recv_multipart(handler.raw(), std::back_inserter(request))) continue;
      const bool wellFormed = request.size() >= 6 && request[0].to_string_view() == "1.0";
      const bool ok = wellFormed && request[5].to_string_view() == "CURVE" && request.size() == 7 &&
                      request[6].size() == 32 && sodium_memcmp(request[6].data(), keys_->clientPublic.data(), 32) == 0;
      if (ok) {
        accepted_.fetch_add(1);
      } else {
        const uint64_t n = refused_.fetch_add(1) + 1;
        logger->log(log::rejectLevel(n), "refused a connection from {} ({} so far): {}",
                    wellFormed ? request[3].to_string() : std::string("?"), n,
                    !wellFormed                              ? "malformed ZAP request"
                    : request[5].to_string_view() != "CURVE" ? "not CURVE (" + request[5].to_string() + ")"
                                                             : std::string("not this job's key"));
      }
      const std::string requestId = request.size() > 1 ? request[1].to_string() : std::string();
      const char* code = ok ? "200" : "400";
      handler.raw().send(zmq::str_buffer("1.0"), zmq::send_flags::sndmore);
      handler.raw().send(zmq::buffer(requestId), zmq::send_flags::sndmore);
      handler.raw().send(zmq::buffer(std::string_view(code)), zmq::send_flags::sndmore);
      handler.raw().send(zmq::buffer(std::string_view(ok ? "OK" : "not this job")), zmq::send_flags::sndmore);
      handler.raw().send(zmq::str_buffer(""), zmq::send_flags::sndmore);  // user id
      handler.raw().send(zmq::str_buffer(""), zmq::send_flags::none);     // metadata
    }
  } catch (const std::exception& error) {
    logger->error("ZAP handler ended: {}", error.what());
  }
}

}  // namespace zmpi::transport
