#include "runtime/common/agent_codec.h"

#include <sodium.h>

#include <chrono>
#include <cstring>

#include "transport/errors.h"
#include "transport/frames.h"
#include "transport/tsan_annotations.h"

namespace zmpi::runtime {
namespace {

// Domain separation: a MAC made for this protocol is never valid for anything else keyed
// with the same secret.
constexpr char kDomain[] = "zmpi-agent-protocol-v1";
constexpr size_t kMacBytes = crypto_auth_hmacsha256_BYTES;
static_assert(kMacBytes <= transport::kEnvelopeBytes);

}  // namespace

void AgentCodec::sign(uint16_t kind, const zmq::message_t& payload, unsigned char* mac) const {
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, secret_->data(), secret_->size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(kDomain), sizeof kDomain);
  const unsigned char kindBytes[2] = {static_cast<unsigned char>(kind & 0xff), static_cast<unsigned char>(kind >> 8)};
  crypto_auth_hmacsha256_update(&state, kindBytes, sizeof kindBytes);
  crypto_auth_hmacsha256_update(&state, static_cast<const unsigned char*>(payload.data()), payload.size());
  crypto_auth_hmacsha256_final(&state, mac);
  ::sodium_memzero(&state, sizeof state);
}

transport::WireMessage AgentCodec::seal(const proto::AgentMessage& message) const {
  if (secret_ == nullptr) throw AgentProtocolError("cannot sign a message without a secret");
  const std::string bytes = message.SerializeAsString();
  transport::WireMessage wire;
  wire.header.kind = kAgentSignedKind;
  wire.payload = transport::makePayload(bytes.data(), bytes.size());
  wire.header.payloadBytes = bytes.size();
  sign(wire.header.kind, wire.payload, wire.header.envelope.data());
  return wire;
}

transport::WireMessage AgentCodec::refusal(const std::string& session, const std::string& reason) const {
  proto::AgentMessage message;
  message.set_session(session);
  message.set_timestamp_ms(wallClockMs());
  message.mutable_refused()->set_reason(reason);
  message.mutable_refused()->set_rank(-1);
  const std::string bytes = message.SerializeAsString();
  transport::WireMessage wire;
  wire.header.kind = kAgentUnsignedKind;
  wire.payload = transport::makePayload(bytes.data(), bytes.size());
  wire.header.payloadBytes = bytes.size();
  return wire;
}

OpenedMessage AgentCodec::open(const transport::WireMessage& wire) const {
  OpenedMessage opened;
  const uint16_t kind = wire.header.kind;
  if (kind != kAgentSignedKind && kind != kAgentUnsignedKind) {
    throw AgentProtocolError("not a zmpi agent message (kind " + std::to_string(kind) + ")");
  }
  if (kind == kAgentSignedKind) {
    if (secret_ == nullptr) throw AgentProtocolError("signed message, but no secret is configured here to verify it");
    unsigned char mac[kMacBytes];
    sign(kind, wire.payload, mac);
    if (::sodium_memcmp(mac, wire.header.envelope.data(), kMacBytes) != 0) {
      throw AgentProtocolError("signature does not verify: the sender's secret differs from this side's");
    }
    opened.authenticated = true;
  }
  if (!opened.message.ParseFromArray(wire.payload.data(), static_cast<int>(wire.payload.size()))) {
    throw AgentProtocolError("payload is not an AgentMessage");
  }
  if (!opened.authenticated && !opened.message.has_refused()) {
    throw AgentProtocolError("unsigned message that is not a refusal");
  }
  return opened;
}

bool sendAgentMessage(zmq::socket_t& socket, const std::string& peer, transport::WireMessage&& message,
                      const std::string* routingId) {
  try {
    if (routingId != nullptr &&
        !transport::zmqSend(socket, zmq::buffer(*routingId), zmq::send_flags::sndmore | zmq::send_flags::dontwait)) {
      return false;
    }
    return transport::sendMessage(socket, peer, message.header, std::move(message.payload), zmq::send_flags::dontwait);
  } catch (const zmq::error_t& error) {
    if (error.num() == EHOSTUNREACH) return false;  // ROUTER_MANDATORY: that peer is gone
    throw;
  } catch (const transport::TransportError&) {
    return false;  // the peer vanished between frames; its session ends by heartbeat
  }
}

std::optional<transport::WireMessage> receiveAgentMessage(zmq::socket_t& socket, const std::string& peer,
                                                          std::string* routingId) {
  auto frames = transport::receiveFrames(socket, peer);
  if (!frames) return std::nullopt;
  if (routingId != nullptr) {
    if (frames->empty()) throw AgentProtocolError("empty message");
    *routingId = frames->front().to_string();
    frames->erase(frames->begin());
  }
  try {
    return transport::decodeMessage(std::move(*frames), 0);
  } catch (const transport::MalformedMessage& error) {
    throw AgentProtocolError(std::string("malformed frames: ") + error.what());
  }
}

std::string agentProtocolMismatch(const std::string& launcherVersion, uint32_t launcherProtocol,
                                  const std::string& agentVersion, uint32_t agentProtocol,
                                  const std::string& agentHost) {
  if (launcherProtocol == agentProtocol) return "";
  auto describe = [](const char* program, const std::string& version, uint32_t protocol) {
    std::string text = std::string(program) + " " + (version.empty() ? "(version unknown)" : printable(version, 64));
    if (protocol == 0) return text + " (older than agent protocol versions)";
    return text + " (agent protocol " + std::to_string(protocol) + ")";
  };
  return describe("zmpirun", launcherVersion, launcherProtocol) + " and " +
         describe("zmpid", agentVersion, agentProtocol) + " on host '" + printable(agentHost, 256) +
         "' do not work together: install zmpirun and every host's zmpid from the same zmpi build";
}

std::string newSessionId() {
  std::string id(kSessionIdBytes, '\0');
  ::randombytes_buf(id.data(), id.size());
  return id;
}

int64_t wallClockMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string printable(const std::string& text, size_t limit) {
  std::string out;
  for (char c : text) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    out += (c >= 0x20 && c < 0x7f) || c == '\n' ? c : '?';
  }
  return out;
}

}  // namespace zmpi::runtime
