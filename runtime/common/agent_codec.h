#pragma once
// How zmpirun and zmpid messages travel: one AgentMessage (protobuf) as the payload of a
// transport wire message whose envelope carries HMAC-SHA256(secret, domain || kind ||
// payload). A receiver acts on nothing it cannot verify, except an unsigned Refused that
// answers a launch (so a launcher with the wrong secret learns why, instead of timing
// out); an unsigned refusal can only make a launch fail, never make anything run.
//
// Replay protection is the caller's part: a Launch carries a fresh random session id and
// a timestamp (the agent rejects stale timestamps and session ids it has seen), and every
// later message names its session and carries a sequence number that must grow.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "agent_protocol.pb.h"  // generated from runtime/common/agent_protocol.proto
#include "runtime/common/secret.h"
#include "transport/wire.h"

namespace zmpi::runtime {

// What zmpirun and zmpid must agree on beyond the message format: Launch carries the
// launcher's, Accepted the agent's, and either side refuses the other's if it differs
// (agentProtocolMismatch), as Open MPI refuses daemons of another version. A change in
// how either side counts, answers or ends something the other relies on bumps it:
//   1  Output charged by its bytes alone (before 78b2efd)
//   2  every Output charged at least kOutputMessageCharge (78b2efd); after Finish the
//      agent forwards the ranks' remaining output (within credit) before Finished
// A message without the field (0) comes from a build older than this check.
inline constexpr uint32_t kAgentProtocolVersion = 2;

inline constexpr uint16_t kAgentSignedKind = 0x0200;
inline constexpr uint16_t kAgentUnsignedKind = 0x0201;
inline constexpr size_t kSessionIdBytes = 16;
inline constexpr uint16_t kDefaultAgentPort = 7117;
// A Launch for many ranks with their environments is the largest message; anything beyond
// this is refused by zmq before it is allocated (ZMQ_MAXMSGSIZE).
inline constexpr int64_t kMaxAgentMessageBytes = 16 << 20;
// Output travels in pieces of at most this size (one read of a rank's pipe).
inline constexpr size_t kMaxOutputChunk = 64 * 1024;
// Output an agent may send before the launcher grants more credit; the launcher grants
// credit for what it has taken, in steps of a quarter window, and none while its own
// stdout is not taking what it holds (output_forwarder.h).
inline constexpr int64_t kOutputCreditWindow = 4 << 20;
// Every Output counts as at least this many bytes against that window (both sides count
// alike), so at most 512 are in flight however small they are: a rank printing short
// lines one write at a time would otherwise fill zmq's queues (1000 messages) while
// zmpirun's loop waits on its own stdout, and a full receive queue stops zmpirun's I/O
// thread from reading the connection, so it answers no zmq heartbeat and the agent closes
// the connection after 3 s (and its sends, failing on the full queue, lose output).
inline constexpr int64_t kOutputMessageCharge = kOutputCreditWindow / 512;
inline int64_t outputCharge(size_t bytes) { return std::max(static_cast<int64_t>(bytes), kOutputMessageCharge); }
// zmpirun's stdin for a remote rank: pieces of at most kMaxInputChunk, and at most
// kInputWindow bytes sent and not yet written to the rank's pipe (InputCredit): that is
// all an agent ever holds of it.
inline constexpr size_t kMaxInputChunk = 64 * 1024;
inline constexpr uint64_t kInputWindow = 1 << 20;

// A message that is malformed, unauthenticated or out of place; what() says which.
class AgentProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OpenedMessage {
  proto::AgentMessage message;
  bool authenticated = false;  // false only for an unsigned Refused
};

class AgentCodec {
 public:
  // `secret` may be null: such a codec can only send unsigned refusals, and opens nothing
  // but unsigned refusals.
  explicit AgentCodec(const Secret* secret) : secret_(secret) {}

  // Serialises and signs `message`.
  transport::WireMessage seal(const proto::AgentMessage& message) const;
  // An unsigned Refused for a request that could not be authenticated.
  transport::WireMessage refusal(const std::string& session, const std::string& reason) const;

  // Verifies and parses. Throws AgentProtocolError for a wrong kind, a bad signature, an
  // unparsable payload, or an unsigned message that is not a Refused.
  OpenedMessage open(const transport::WireMessage& wire) const;

  bool hasSecret() const { return secret_ != nullptr; }

 private:
  void sign(uint16_t kind, const zmq::message_t& payload, unsigned char* mac) const;

  const Secret* secret_;
};

// Frames on a socket: DEALER sends [header, payload]; ROUTER prefixes the peer's routing
// id. Sends never block (dontwait): false if the message could not be queued.
bool sendAgentMessage(zmq::socket_t& socket, const std::string& peer, transport::WireMessage&& message,
                      const std::string* routingId = nullptr);
// Receives one message without blocking; nullopt if none is waiting. With `routingId`
// (ROUTER) the first frame is taken as the sender's id. Throws AgentProtocolError for
// frames that do not form a wire message.
std::optional<transport::WireMessage> receiveAgentMessage(zmq::socket_t& socket, const std::string& peer,
                                                          std::string* routingId = nullptr);

// Empty if the protocol versions match; else a whole sentence naming both sides' zmpi
// and protocol versions (a version of 0 or an empty string: a build older than the check)
// and what to do.
std::string agentProtocolMismatch(const std::string& launcherVersion, uint32_t launcherProtocol,
                                  const std::string& agentVersion, uint32_t agentProtocol,
                                  const std::string& agentHost);

// 16 random bytes from libsodium.
std::string newSessionId();
// Milliseconds since the epoch (wall clock: compared across hosts).
int64_t wallClockMs();
// Text from the other side, made safe to print: printable ASCII only, at most `limit` bytes.
std::string printable(const std::string& text, size_t limit = 512);

}  // namespace zmpi::runtime
