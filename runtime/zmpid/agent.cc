#include "runtime/zmpid/agent.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <set>

#include "runtime/common/addresses.h"
#include "runtime/common/job_secret.h"
#include "runtime/common/lib_dir.h"
#include "runtime/common/orphans.h"
#include "runtime/common/signals.h"
#include "transport/errors.h"
#include "transport/log.h"
#include "transport/node_address.h"

extern char** environ;

namespace zmpi::runtime {
namespace {

// Messages handled per turn of the loop before output and timers get their turn.
constexpr int kReceiveBatch = 256;

constexpr const char* kNoSecret =
    "this zmpid has no secret configured (--secret-file, ZMPI_SECRET_FILE or ZMPI_SECRET), so it refuses every "
    "remote launch";
constexpr const char* kWrongSecret =
    "the launch request's signature does not verify: zmpirun's secret (ZMPI_SECRET_FILE / ZMPI_SECRET) differs "
    "from this agent's";

std::map<std::string, std::string> agentEnvironment() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals == std::string::npos || isSecretVariable(text.substr(0, equals))) continue;
    environment.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return environment;
}

std::string hostName() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
}

transport::SocketOptions routerOptions() {
  transport::SocketOptions options;
  options.linger = std::chrono::milliseconds(0);  // a vanished launcher's output is not worth waiting for
  options.maxMessageSize = kMaxAgentMessageBytes;
  options.bindRetries = 0;  // a port in use is an error to report, not to wait out
  return options;
}

}  // namespace

Agent::Agent(const AgentOptions& options, std::optional<Secret> secret)
    : options_(options),
      secret_(std::move(secret)),
      codec_(secret_ ? &*secret_ : nullptr),
      context_{agentEnvironment(), findZmpiLibDir(), hostName()},
      replay_(options.maxClockSkew, 100000),
      router_(zmq::socket_type::router, routerOptions()),
      signals_(openSignalFd({SIGCHLD, SIGTERM, SIGINT, SIGHUP})) {
  std::string error;
  // "auto": started on every node of an allocation by one srun (zmpirun inside Slurm), each
  // zmpid binds the address its own node publishes.
  const auto address = options.bindHost == kNodeBindAddress ? transport::nodeAddress(hostName(), false)
                                                            : resolveIPv4(options.bindHost, &error);
  if (!address) throw std::runtime_error("cannot resolve --bind address '" + options.bindHost + "': " + error);
  // Sends to a peer that is gone fail instead of vanishing silently; zmq's own heartbeats
  // close connections whose host went away, so their queues are freed.
  router_.raw().set(zmq::sockopt::router_mandatory, 1);
  router_.raw().set(zmq::sockopt::heartbeat_ivl, 1000);
  router_.raw().set(zmq::sockopt::heartbeat_timeout, 3000);
  const std::string port = options.port == 0 ? "*" : std::to_string(options.port);
  endpoint_ = router_.bind("tcp://" + *address + ":" + port);
  becomeSubreaper();  // what the ranks leave behind comes back to us, to be ended with their job
  if (!secret_) log::get("runtime")->warn("{}", kNoSecret);
}

int Agent::run() {
  auto logger = log::get("runtime");
  watchingStdin_ = options_.untilStdinCloses;
  for (;;) {
    if (stopping_ && sessions_.empty()) return 0;
    PollSet set;
    const size_t routerIndex = set.addSocket(router_.raw().handle(), ZMQ_POLLIN);
    const size_t signalIndex = set.addFd(signals_.get(), ZMQ_POLLIN);
    const size_t stdinIndex = watchingStdin_ ? set.addFd(STDIN_FILENO, ZMQ_POLLIN) : 0;
    std::optional<Clock::time_point> deadline;
    for (auto& [id, session] : sessions_) {
      session->prepare(set);
      if (auto next = session->nextDeadline(); next && (!deadline || *next < *deadline)) deadline = next;
    }
    std::optional<std::chrono::milliseconds> wait;
    if (deadline) wait = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
    set.wait(wait);
    // Output before exits, so whatever a rank wrote before it died is sent before its death.
    for (auto& [id, session] : sessions_) session->handle(set);
    if (set.readable(routerIndex)) receive();
    if (set.readable(signalIndex)) handleSignals();
    if (watchingStdin_ && set.readable(stdinIndex)) readStdin();
    const auto now = Clock::now();
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      it->second->tick(now);
      it = it->second->done() ? sessions_.erase(it) : std::next(it);
    }
  }
}

void Agent::receive() {
  for (int i = 0; i < kReceiveBatch; ++i) {
    std::string routingId;
    std::optional<transport::WireMessage> wire;
    try {
      wire = receiveAgentMessage(router_.raw(), endpoint_, &routingId);
    } catch (const AgentProtocolError& error) {
      reject(error.what());
      continue;
    }
    if (!wire) return;
    dispatch(routingId, *wire);
  }
}

void Agent::dispatch(const std::string& routingId, const transport::WireMessage& wire) {
  OpenedMessage opened;
  try {
    opened = codec_.open(wire);
  } catch (const AgentProtocolError& error) {
    reject(error.what());
    // A launcher with the wrong secret (or none configured here) deserves to learn why;
    // the payload is parsed only to see whether it is a launch to answer, nothing else.
    proto::AgentMessage peek;
    if (wire.header.kind == kAgentSignedKind &&
        peek.ParseFromArray(wire.payload.data(), static_cast<int>(wire.payload.size())) && peek.has_launch() &&
        peek.session().size() == kSessionIdBytes) {
      sendAgentMessage(router_.raw(), endpoint_, codec_.refusal(peek.session(), secret_ ? kWrongSecret : kNoSecret),
                       &routingId);
    }
    return;
  }
  if (!opened.authenticated) return reject("an unsigned refusal sent to an agent");
  const proto::AgentMessage& message = opened.message;
  if (message.has_launch()) return launch(routingId, message);
  auto it = sessions_.find(message.session());
  if (it == sessions_.end()) {
    log::get("runtime")->debug("message for a session that is over or unknown; ignored");
    return;
  }
  Session& session = *it->second;
  uint64_t& last = message.has_heartbeat() ? session.lastBeat() : session.lastSequence();
  if (message.sequence() <= last) return reject("replayed or reordered message for job " + session.jobId());
  last = message.sequence();
  session.onMessage(message);
}

void Agent::launch(const std::string& routingId, const proto::AgentMessage& message) {
  auto logger = log::get("runtime");
  const std::string& session = message.session();
  if (session.size() != kSessionIdBytes) return reject("launch with a malformed session id");
  if (std::string why = replay_.admit(session, message.timestamp_ms(), wallClockMs()); !why.empty()) {
    reject(why);
    return refuse(routingId, session, why, -1);
  }
  const proto::Launch& request = message.launch();
  if (stopping_) return refuse(routingId, session, "zmpid on host " + context_.hostName + " is stopping", -1);
  if (sessions_.size() >= static_cast<size_t>(options_.maxJobs)) {
    return refuse(routingId, session,
                  "zmpid on host " + context_.hostName + " already runs " + std::to_string(sessions_.size()) +
                      " jobs (its --max-jobs)",
                  -1);
  }
  try {
    if (const std::string mismatch = agentProtocolMismatch(request.launcher_version(), request.protocol_version(),
                                                           ZMPI_VERSION, kAgentProtocolVersion, context_.hostName);
        !mismatch.empty()) {
      throw RequestError(mismatch);
    }
    std::vector<RankSpawn> plan = planLaunch(request, context_);
    if (!request.sealed_job_secret().empty()) {
      // Only a launcher holding our secret could seal it (and the message is signed).
      const std::string jobSecret = openJobSecret(*secret_, request.sealed_job_secret());
      for (RankSpawn& spawn : plan) spawn.environment.push_back(std::string(kJobSecretVariable) + "=" + jobSecret);
    }
    auto created = std::make_unique<Session>(session, routingId, request, sender(session, routingId));
    const std::vector<pid_t> pids = created->start(plan);
    proto::AgentMessage accepted;
    for (pid_t pid : pids) accepted.mutable_accepted()->add_pids(pid);
    accepted.mutable_accepted()->set_agent_version(ZMPI_VERSION);
    accepted.mutable_accepted()->set_protocol_version(kAgentProtocolVersion);
    created->send(std::move(accepted));  // the session's sender: one sequence for all it sends
    sessions_.emplace(session, std::move(created));
    logger->info("job {} for host '{}': {} rank(s) started", request.job_id(), printable(request.host(), 64),
                 pids.size());
  } catch (const RequestError& error) {
    logger->warn("job {}: refused: {}", printable(request.job_id(), 64), error.what());
    refuse(routingId, session, error.what(), error.rank());
  } catch (const std::exception& error) {
    // Out of descriptors or memory, say: this job fails, the agent and its other jobs go on.
    logger->error("job {}: cannot start: {}", printable(request.job_id(), 64), error.what());
    refuse(routingId, session,
           std::string("zmpid on host " + context_.hostName + " cannot start the job: ") + error.what(), -1);
  }
}

void Agent::refuse(const std::string& routingId, const std::string& session, const std::string& reason, int rank) {
  proto::AgentMessage message;
  message.mutable_refused()->set_reason(reason);
  message.mutable_refused()->set_rank(rank);
  sender(session, routingId)(std::move(message));
}

Session::Send Agent::sender(const std::string& session, const std::string& routingId) {
  return [this, session, routingId, sequence = uint64_t{0}](proto::AgentMessage&& message) mutable {
    message.set_session(session);
    message.set_sequence(++sequence);
    message.set_timestamp_ms(wallClockMs());
    return sendAgentMessage(router_.raw(), endpoint_, codec_.seal(message), &routingId);
  };
}

void Agent::handleSignals() {
  bool childExited = false;
  while (int signal = readSignal(signals_.get())) {
    if (signal == SIGCHLD) {
      childExited = true;
    } else if (!stopping_) {
      log::get("runtime")->info("signal {}: ending every job and stopping", signal);
      stopping_ = true;
      for (auto& [id, session] : sessions_) session->shutdown();
    }
  }
  if (!childExited) return;
  std::set<pid_t> keep;
  for (auto& [id, session] : sessions_) {
    session->reapExited();
    for (pid_t pid : session->unreaped()) keep.insert(pid);
  }
  reapStrayChildren(keep);
}

void Agent::readStdin() {
  char discarded[256];
  const ssize_t got = ::read(STDIN_FILENO, discarded, sizeof discarded);
  if (got > 0 || (got < 0 && errno == EINTR)) return;
  watchingStdin_ = false;
  if (stopping_) return;
  log::get("runtime")->info("standard input closed: ending every job and stopping");
  stopping_ = true;
  for (auto& [id, session] : sessions_) session->shutdown();
}

void Agent::reject(const std::string& why) {
  ++rejectedSinceLog_;
  const auto now = Clock::now();
  if (now - lastRejectLog_ < std::chrono::seconds(1)) return;
  log::get("runtime")->warn("rejected {} message(s) on {}; the last: {}", rejectedSinceLog_, endpoint_, why);
  rejectedSinceLog_ = 0;
  lastRejectLog_ = now;
}

}  // namespace zmpi::runtime
