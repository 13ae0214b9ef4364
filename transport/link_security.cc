#include "transport/link_security.h"

#include <sodium.h>

#include <map>
#include <mutex>
#include <vector>
#include <zmq_addon.hpp>

#include "transport/errors.h"
#include "transport/log.h"
#include "transport/service_thread.h"
#include "transport/settings.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {
namespace {

constexpr char kKdfContext[crypto_kdf_CONTEXTBYTES + 1] = "zmpicurv";  // 8 bytes, libsodium's KDF context
// Subkey ids of the job secret's master key; each use has its own, so knowing one output
// (the token an eavesdropper saw, the public domain) says nothing of another.
constexpr uint64_t kServerKeyId = 1;
constexpr uint64_t kClientKeyId = 2;
constexpr uint64_t kTokenId = 3;
constexpr uint64_t kDomainId = 4;
constexpr uint64_t kBulkKeyId = 5;
constexpr char kZapEndpoint[] = "inproc://zeromq.zap.01";
constexpr char kPlainUser[] = "zmpi";

void derive(uint8_t* out, size_t bytes, uint64_t id, const uint8_t master[crypto_kdf_KEYBYTES]) {
  if (crypto_kdf_derive_from_key(out, bytes, id, kKdfContext, master) != 0) {
    throw TransportError("libsodium could not derive a subkey of the job secret");
  }
}

void seedKeypair(const uint8_t master[crypto_kdf_KEYBYTES], uint64_t id, std::array<uint8_t, 32>& publicKey,
                 std::array<uint8_t, 32>& secretKey) {
  static_assert(crypto_box_PUBLICKEYBYTES == 32 && crypto_box_SECRETKEYBYTES == 32 && crypto_box_SEEDBYTES == 32);
  uint8_t seed[crypto_box_SEEDBYTES];
  derive(seed, sizeof seed, id, master);
  crypto_box_seed_keypair(publicKey.data(), secretKey.data(), seed);
  sodium_memzero(seed, sizeof seed);
}

std::string domainOf(const uint8_t master[crypto_kdf_KEYBYTES], bool encrypt) {
  uint8_t id[crypto_kdf_BYTES_MIN];  // 16 bytes, the shortest subkey libsodium derives
  derive(id, sizeof id, kDomainId, master);
  char hex[2 * sizeof id + 1];
  sodium_bin2hex(hex, sizeof hex, id, sizeof id);
  return std::string("zmpi-") + hex + (encrypt ? "-curve" : "-plain");
}

// The one ZAP handler of the process: a thread serving inproc://zeromq.zap.01 while at
// least one job's credentials are enrolled. zmq asks it about every connection to a
// server socket that has a mechanism; the socket's ZAP domain names the credentials.
class ZapRegistry {
 public:
  // Never destroyed: enrolments may end during static destruction.
  static ZapRegistry& instance() {
    static ZapRegistry* registry = new ZapRegistry;
    return *registry;
  }

  std::shared_ptr<ZapAuthenticator::Counters> enrol(std::shared_ptr<const LinkKeys> keys) {
    std::lock_guard life(lifecycle_);
    std::shared_ptr<ZapAuthenticator::Counters> counters;
    {
      std::lock_guard lock(table_);
      Entry& entry = entries_[keys->zapDomain];
      if (entry.enrolments++ == 0) {
        entry.keys = std::move(keys);
        entry.counters = std::make_shared<ZapAuthenticator::Counters>();
      }
      counters = entry.counters;
    }
    if (!service_) {
      try {
        Socket handler(zmq::socket_type::rep);
        handler.bind(kZapEndpoint);
        service_ = std::make_unique<ServiceThread>();
        service_->start(
            [this, h = std::move(handler)](Socket control) mutable { serve(std::move(h), std::move(control)); });
      } catch (...) {
        service_.reset();
        dropLocked(counters);
        throw;
      }
    }
    return counters;
  }

  void withdraw(const std::string& domain) {
    std::lock_guard life(lifecycle_);
    bool last = false;
    {
      std::lock_guard lock(table_);
      auto it = entries_.find(domain);
      if (it != entries_.end() && --it->second.enrolments == 0) entries_.erase(it);
      last = entries_.empty();
    }
    // Joins the handler thread, which takes only table_: never held here while joining.
    if (last) service_.reset();
  }

 private:
  struct Entry {
    std::shared_ptr<const LinkKeys> keys;
    std::shared_ptr<ZapAuthenticator::Counters> counters;
    int enrolments = 0;
  };

  void dropLocked(const std::shared_ptr<ZapAuthenticator::Counters>& counters) {
    std::lock_guard lock(table_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.counters == counters && --it->second.enrolments == 0) {
        entries_.erase(it);
        return;
      }
    }
  }

  // The verdict on one ZAP 1.0 request: version, request id, domain, address, routing id,
  // mechanism, credentials (CURVE: the client's public key; PLAIN: user name, password).
  // Empty: accepted; otherwise why not.
  std::string judge(const std::vector<zmq::message_t>& request, std::shared_ptr<ZapAuthenticator::Counters>& counters) {
    if (request.size() < 6 || request[0].to_string_view() != "1.0") return "malformed ZAP request";
    std::shared_ptr<const LinkKeys> keys;
    {
      std::lock_guard lock(table_);
      auto it = entries_.find(request[2].to_string());
      if (it != entries_.end()) {
        keys = it->second.keys;
        counters = it->second.counters;
      }
    }
    if (!keys) return "no job of this process listens with ZAP domain '" + request[2].to_string() + "'";
    const std::string_view mechanism = request[5].to_string_view();
    if (keys->encrypt) {
      if (mechanism != "CURVE") return "not CURVE (" + std::string(mechanism) + ")";
      if (request.size() != 7 || request[6].size() != 32 ||
          sodium_memcmp(request[6].data(), keys->clientPublic.data(), 32) != 0) {
        return "not this job's key";
      }
      return {};
    }
    if (mechanism != "PLAIN") return "not PLAIN (" + std::string(mechanism) + ")";
    if (request.size() != 8 || request[7].size() != keys->token.size() ||
        sodium_memcmp(request[7].data(), keys->token.data(), keys->token.size()) != 0) {
      return "not this job's token";
    }
    return {};
  }

  void serve(Socket handler, Socket control) {
    auto logger = log::get("transport");
    try {
      for (;;) {
        zmq::pollitem_t items[] = {{handler.raw().handle(), 0, ZMQ_POLLIN, 0},
                                   {control.raw().handle(), 0, ZMQ_POLLIN, 0}};
        zmqPoll(items, 2, std::chrono::milliseconds(-1));
        if (items[1].revents & ZMQ_POLLIN) return;
        if (!(items[0].revents & ZMQ_POLLIN)) continue;
        std::vector<zmq::message_t> request;
        if (!zmqRecvMultipart(handler.raw(), std::back_inserter(request))) continue;
        std::shared_ptr<ZapAuthenticator::Counters> counters;
        const std::string why = judge(request, counters);
        const bool ok = why.empty();
        if (ok) {
          counters->accepted.fetch_add(1);
        } else {
          const uint64_t n = (counters ? counters->refused : strangers_).fetch_add(1) + 1;
          const bool wellFormed = request.size() >= 6;
          logger->log(log::rejectLevel(n), "refused a connection from {} ({} so far): {}",
                      wellFormed ? request[3].to_string() : std::string("?"), n, why);
        }
        const std::string requestId = request.size() > 1 ? request[1].to_string() : std::string();
        zmqSend(handler.raw(), zmq::str_buffer("1.0"), zmq::send_flags::sndmore);
        zmqSend(handler.raw(), zmq::buffer(requestId), zmq::send_flags::sndmore);
        zmqSend(handler.raw(), zmq::buffer(std::string_view(ok ? "200" : "400")), zmq::send_flags::sndmore);
        zmqSend(handler.raw(), zmq::buffer(std::string_view(ok ? "OK" : "not this job")), zmq::send_flags::sndmore);
        zmqSend(handler.raw(), zmq::str_buffer(""), zmq::send_flags::sndmore);  // user id
        zmqSend(handler.raw(), zmq::str_buffer(""), zmq::send_flags::none);     // metadata
      }
    } catch (const std::exception& error) {
      logger->error("ZAP handler ended: {}", error.what());
    }
  }

  std::mutex lifecycle_;  // enrol/withdraw: the handler thread's start and stop
  std::mutex table_;      // entries_, read by the handler thread
  std::map<std::string, Entry> entries_;
  std::unique_ptr<ServiceThread> service_;
  std::atomic<uint64_t> strangers_{0};  // refusals naming no enrolled domain
};

}  // namespace

LinkKeys::~LinkKeys() {
  sodium_memzero(serverSecret.data(), serverSecret.size());
  sodium_memzero(clientSecret.data(), clientSecret.size());
  sodium_memzero(token.data(), token.size());
  sodium_memzero(bulkKey.data(), bulkKey.size());
}

std::shared_ptr<const LinkKeys> deriveLinkKeys(std::string_view secret, bool encrypt) {
  if (secret.size() < kMinJobSecretBytes) {
    throw TransportError("a job secret must have at least " + std::to_string(kMinJobSecretBytes) + " bytes");
  }
  if (sodium_init() < 0) throw TransportError("libsodium could not be initialised");
  if (encrypt && !curveAvailable()) {
    throw TransportError(
        "encryption (ZMPI_ENCRYPT) needs CURVE, which this libzmq lacks (zmq_has(\"curve\") is false)");
  }
  uint8_t master[crypto_kdf_KEYBYTES];
  crypto_generichash(master, sizeof master, reinterpret_cast<const unsigned char*>(secret.data()), secret.size(),
                     nullptr, 0);
  auto keys = std::make_shared<LinkKeys>();
  keys->encrypt = encrypt;
  try {
    if (encrypt) {
      seedKeypair(master, kServerKeyId, keys->serverPublic, keys->serverSecret);
      seedKeypair(master, kClientKeyId, keys->clientPublic, keys->clientSecret);
    } else {
      derive(keys->token.data(), keys->token.size(), kTokenId, master);
      derive(keys->bulkKey.data(), keys->bulkKey.size(), kBulkKeyId, master);
    }
    keys->zapDomain = domainOf(master, encrypt);
  } catch (...) {
    sodium_memzero(master, sizeof master);
    throw;
  }
  sodium_memzero(master, sizeof master);
  return keys;
}

bool encryptionRequested(const char* value) {
  // The registry's parser (mpi/init/launch_contract.h declares the setting).
  if (value == nullptr || *value == '\0') return false;
  return parseBoolean(kEncryptVariable, value);
}

bool curveAvailable() { return zmq_has("curve") != 0; }

void applyLinkKeys(zmq::socket_t& socket, const LinkKeys& keys, bool server) {
  checked("configure authentication on", server ? "a server socket" : "a client socket", [&] {
    if (server) {
      if (keys.encrypt) {
        socket.set(zmq::sockopt::curve_server, 1);
        socket.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(keys.serverSecret.data(), 32));
      } else {
        socket.set(zmq::sockopt::plain_server, 1);
      }
      socket.set(zmq::sockopt::zap_domain, keys.zapDomain);
    } else if (keys.encrypt) {
      socket.set(zmq::sockopt::curve_serverkey, zmq::const_buffer(keys.serverPublic.data(), 32));
      socket.set(zmq::sockopt::curve_publickey, zmq::const_buffer(keys.clientPublic.data(), 32));
      socket.set(zmq::sockopt::curve_secretkey, zmq::const_buffer(keys.clientSecret.data(), 32));
    } else {
      socket.set(zmq::sockopt::plain_username, kPlainUser);
      socket.set(zmq::sockopt::plain_password, zmq::const_buffer(keys.token.data(), keys.token.size()));
    }
  });
}

ZapAuthenticator::ZapAuthenticator(std::shared_ptr<const LinkKeys> keys)
    // domain_ is declared (so initialised) before counters_: keys is read before it is moved.
    : domain_(keys->zapDomain), counters_(ZapRegistry::instance().enrol(std::move(keys))), enrolled_(true) {}

ZapAuthenticator::~ZapAuthenticator() { stop(); }

uint64_t ZapAuthenticator::acceptedCount() const { return counters_->accepted.load(); }
uint64_t ZapAuthenticator::refusedCount() const { return counters_->refused.load(); }

void ZapAuthenticator::stop() {
  if (!enrolled_) return;
  enrolled_ = false;
  ZapRegistry::instance().withdraw(domain_);
}

}  // namespace zmpi::transport
