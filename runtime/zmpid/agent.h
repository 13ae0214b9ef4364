#pragma once
// The zmpid agent: one ROUTER socket bound to the address it was given, through which
// launchers on other hosts open sessions (one per job) and follow them. Everything runs on
// one thread in one poll loop, like zmpirun's: the socket, SIGCHLD and stop signals
// (signalfd), every session's output pipes and timers. Nothing sleeps.
//
// Trust: a message is acted on only if its HMAC verifies with the configured secret
// (agent_codec.h); a Launch must also be fresh (replay_guard.h). Without a secret every
// launch is refused with a message saying so. Whatever arrives is bounded in size by zmq
// before allocation, and checked field by field (launch_request.h) before anything runs.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "runtime/common/agent_codec.h"
#include "runtime/common/secret.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpid/agent_options.h"
#include "runtime/zmpid/launch_request.h"
#include "runtime/zmpid/replay_guard.h"
#include "runtime/zmpid/session.h"
#include "transport/socket.h"

namespace zmpi::runtime {

class Agent {
 public:
  // Binds at once; throws transport::TransportError (or std::runtime_error for a name
  // that does not resolve) naming the address and port.
  Agent(const AgentOptions& options, std::optional<Secret> secret);
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  const std::string& endpoint() const { return endpoint_; }
  // Serves until SIGTERM, SIGINT or SIGHUP, then ends every job's ranks and returns 0.
  int run();

 private:
  using Clock = std::chrono::steady_clock;

  void receive();
  void dispatch(const std::string& routingId, const transport::WireMessage& wire);
  void launch(const std::string& routingId, const proto::AgentMessage& message);
  void refuse(const std::string& routingId, const std::string& session, const std::string& reason, int rank);
  Session::Send sender(const std::string& session, const std::string& routingId);
  void handleSignals();
  // Standard input readable: at its end (or on an error), stop as on SIGTERM.
  void readStdin();
  void reject(const std::string& why);

  AgentOptions options_;
  std::optional<Secret> secret_;
  AgentCodec codec_;
  AgentContext context_;
  ReplayGuard replay_;
  transport::Socket router_;
  std::string endpoint_;
  UniqueFd signals_;
  std::map<std::string, std::unique_ptr<Session>> sessions_;  // by session id
  bool stopping_ = false;
  bool watchingStdin_ = false;  // options_.untilStdinCloses, until it has closed
  // Rejected messages are logged at most once a second, with a count: hostile traffic
  // must not be able to flood the log.
  uint64_t rejectedSinceLog_ = 0;
  Clock::time_point lastRejectLog_{};
};

}  // namespace zmpi::runtime
