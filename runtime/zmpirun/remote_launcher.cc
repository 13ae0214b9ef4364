#include "runtime/zmpirun/remote_launcher.h"

#include <algorithm>
#include <csignal>

#include "runtime/common/job_secret.h"
#include "transport/log.h"

namespace zmpi::runtime {
namespace {

// Messages taken from one agent per turn of the loop, so one chatty host cannot starve
// the others.
constexpr int kReceiveBatch = 256;

}  // namespace

RemoteLauncher::RemoteLauncher(const Secret& secret, const std::map<std::string, AgentTarget>& agents,
                               const RemoteSettings& settings, int stdinSource)
    : secret_(secret),
      codec_(&secret),
      settings_(settings),
      stdinSource_(stdinSource),
      heartbeats_(codec_, settings.heartbeatInterval) {
  for (const auto& [host, target] : agents) agents_[host].link = std::make_unique<AgentLink>(target, codec_);
}

RemoteLauncher::~RemoteLauncher() {
  heartbeats_.stop();
  // Normally every agent has finished. On an exception path, or an agent that did not
  // answer in time, make sure nothing of this job runs on: kill, then finish.
  for (auto& [host, agent] : agents_) {
    if (agent.lost || agent.finished) continue;
    proto::AgentMessage kill;
    kill.mutable_signal()->set_signal(SIGKILL);
    agent.link->send(std::move(kill));
    proto::AgentMessage finish;
    finish.mutable_finish();
    agent.link->send(std::move(finish));
  }
}

proto::Launch RemoteLauncher::launchFor(const Agent& agent, const std::vector<RankLaunch>& ranks) const {
  const AgentTarget& target = agent.link->target();
  proto::Launch launch;
  launch.set_job_id(settings_.jobId);
  launch.set_host(target.host);
  launch.set_bind_address(target.address);
  launch.set_heartbeat_interval_ms(static_cast<uint32_t>(settings_.heartbeatInterval.count()));
  launch.set_heartbeat_timeout_ms(static_cast<uint32_t>(settings_.heartbeatTimeout.count()));
  launch.set_kill_grace_ms(static_cast<uint32_t>(settings_.killGrace.count()));
  launch.set_protocol_version(kAgentProtocolVersion);
  launch.set_launcher_version(ZMPI_VERSION);
  if (!settings_.jobSecret.empty()) launch.set_sealed_job_secret(sealJobSecret(secret_, settings_.jobSecret));
  for (const RankLaunch& rank : ranks) {
    if (rank.host != target.host) continue;
    proto::RankSpec* spec = launch.add_ranks();
    spec->set_rank(rank.rank);
    spec->set_program(rank.executable);
    for (const auto& arg : rank.argv) spec->add_argv(arg);
    for (const auto& entry : rank.environment) spec->add_environment(entry);
    spec->set_working_directory(rank.workingDirectory);
    spec->set_working_directory_required(rank.workingDirectoryRequired);
    spec->set_receives_stdin(rank.receivesStdin);
  }
  return launch;
}

void RemoteLauncher::start(const std::vector<RankLaunch>& ranks) {
  for (const RankLaunch& rank : ranks) {
    auto it = agents_.find(rank.host);
    if (it == agents_.end()) throw LaunchError(rank.rank, rank.host, "no zmpid agent is known for this host");
    it->second.ranks.push_back(rank.rank);
  }
  for (auto it = agents_.begin(); it != agents_.end();) {
    if (it->second.ranks.empty()) {
      it = agents_.erase(it);  // a host without ranks needs no agent
      continue;
    }
    proto::AgentMessage message;
    *message.mutable_launch() = launchFor(it->second, ranks);
    it->second.link->send(std::move(message));
    ++it;
  }
  // Heartbeats start now, not after every agent answered: an agent that accepted at once
  // must not take zmpirun for dead while a slower one is still starting its ranks. An agent
  // ignores heartbeats for a session it does not (yet, or any more) know.
  for (auto& [host, agent] : agents_) heartbeats_.add(agent.link->endpoint(), agent.link->session());
  heartbeats_.start();
  awaitAcceptance();
  // Every agent runs its ranks: stdin may flow (an agent's first message was its answer,
  // so its Accepted precedes any credit).
  for (const RankLaunch& rank : ranks) {
    if (!rank.receivesStdin) continue;
    inputHost_ = rank.host;
    AgentLink& link = *agents_.at(rank.host).link;
    input_ = InputSender(stdinSource_, rank.rank, [&link](proto::Input&& input) {
      proto::AgentMessage message;
      *message.mutable_input() = std::move(input);
      return link.send(std::move(message));
    });
  }
}

void RemoteLauncher::awaitAcceptance() {
  auto logger = log::get("runtime");
  const auto started = Clock::now();
  const auto deadline = started + settings_.agentTimeout;
  for (;;) {
    PollSet set;
    size_t pending = 0;
    for (auto& [host, agent] : agents_) {
      if (agent.accepted) continue;
      ++pending;
      agent.socketIndex = set.addSocket(agent.link->socket().handle(), ZMQ_POLLIN);
      agent.monitorIndex = set.addSocket(agent.link->monitor().handle(), ZMQ_POLLIN);
    }
    if (pending == 0) return;
    set.wait(std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()));
    for (auto& [host, agent] : agents_) {
      if (agent.accepted) continue;
      if (set.readable(agent.monitorIndex)) agent.link->pollConnection();
      if (!set.readable(agent.socketIndex)) continue;
      try {
        // An agent's first message is its answer: it reads no pipe before answering.
        auto opened = agent.link->receive();
        if (!opened) continue;
        const proto::AgentMessage& answer = opened->message;
        if (answer.has_refused()) {
          const int rank = answer.refused().rank() >= 0 ? answer.refused().rank() : agent.ranks.front();
          throw LaunchError(rank, host,
                            "zmpid on " + agent.link->target().describe() +
                                " refused the job: " + printable(answer.refused().reason()));
        }
        if (answer.has_accepted() && opened->authenticated) {
          // An agent older than the protocol check runs whatever it is sent: its ranks are
          // started, and the destructor ends them (Signal SIGKILL, Finish) as for any failed start.
          if (const std::string mismatch =
                  agentProtocolMismatch(ZMPI_VERSION, kAgentProtocolVersion, answer.accepted().agent_version(),
                                        answer.accepted().protocol_version(), host);
              !mismatch.empty()) {
            throw LaunchError(agent.ranks.front(), host,
                              "zmpid on " + agent.link->target().describe() + " cannot run the job: " + mismatch);
          }
          agent.accepted = true;
          agent.running.insert(agent.ranks.begin(), agent.ranks.end());
          for (int rank : agent.ranks) {
            agent.openOutput.insert({rank, Stream::Stdout});
            agent.openOutput.insert({rank, Stream::Stderr});
          }
          agent.lastHeard = Clock::now();
          logger->debug("zmpid on {} started rank(s) {}..{}", agent.link->target().describe(), agent.ranks.front(),
                        agent.ranks.back());
        }
      } catch (const AgentProtocolError& error) {
        logger->warn("ignored a message from {}: {}", agent.link->target().describe(), error.what());
      }
    }
    if (Clock::now() < deadline) continue;
    for (auto& [host, agent] : agents_) {
      if (agent.accepted) continue;
      throw LaunchError(
          agent.ranks.front(), host,
          agent.link->describeSilence(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started)));
    }
  }
}

void RemoteLauncher::prepare(PollSet& set, const LaunchSink& sink) {
  for (auto& [host, agent] : agents_) {
    if (!live(agent)) {
      agent.socketIndex = agent.monitorIndex = kNotPolled;
      continue;
    }
    // Credit held back while zmpirun's stdout was not taking output goes out now.
    if (sink.acceptingOutput()) grantCredit(agent);
    agent.socketIndex = set.addSocket(agent.link->socket().handle(), ZMQ_POLLIN);
    agent.monitorIndex = set.addSocket(agent.link->monitor().handle(), ZMQ_POLLIN);
  }
  input_.prepare(set);
}

void RemoteLauncher::handle(const PollSet& set, LaunchSink& sink) {
  const auto now = Clock::now();
  for (auto& [host, agent] : agents_) {
    if (!live(agent) || agent.socketIndex == kNotPolled) continue;
    // Messages first: whatever the agent sent before its connection closed counts.
    if (set.readable(agent.socketIndex)) receive(agent, sink);
    if (live(agent) && set.readable(agent.monitorIndex) && agent.link->pollConnection()) {
      lose(agent, "the connection closed (zmpid or its host went down)", sink);
    }
    if (live(agent) && now >= agent.lastHeard + settings_.heartbeatTimeout) {
      lose(agent,
           "nothing came from it for " + std::to_string(settings_.heartbeatTimeout.count()) +
               " ms (heartbeat timeout): the host is down or cut off from this one",
           sink);
    }
  }
  input_.handle(set);
}

void RemoteLauncher::receive(Agent& agent, LaunchSink& sink) {
  for (int i = 0; i < kReceiveBatch && live(agent); ++i) {
    std::optional<OpenedMessage> opened;
    try {
      opened = agent.link->receive();
    } catch (const AgentProtocolError& error) {
      log::get("runtime")->warn("ignored a message from {}: {}", agent.link->target().describe(), error.what());
      continue;
    }
    if (!opened) return;
    if (!opened->authenticated) continue;  // an unsigned refusal is an answer to a launch only
    agent.lastHeard = Clock::now();
    deliver(agent, opened->message, sink);
  }
}

void RemoteLauncher::deliver(Agent& agent, const proto::AgentMessage& message, LaunchSink& sink) {
  auto belongs = [&](int rank) { return std::find(agent.ranks.begin(), agent.ranks.end(), rank) != agent.ranks.end(); };
  switch (message.body_case()) {
    case proto::AgentMessage::kOutput: {
      const auto& output = message.output();
      if (!belongs(output.rank()) || (output.stream() != 1 && output.stream() != 2)) break;
      if (output.data().size() > kMaxOutputChunk) break;
      sink.onOutput(output.rank(), static_cast<Stream>(output.stream()), output.data());
      agent.unacknowledged += static_cast<uint64_t>(outputCharge(output.data().size()));
      // While zmpirun's stdout does not take what it holds, no credit: the agent stops
      // reading its ranks' pipes once its window is used (prepare() grants it later).
      if (sink.acceptingOutput()) grantCredit(agent);
      break;
    }
    case proto::AgentMessage::kOutputClosed: {
      const auto& closed = message.output_closed();
      const auto key = std::make_pair(closed.rank(), static_cast<Stream>(closed.stream()));
      if (agent.openOutput.erase(key) > 0) sink.onOutputClosed(key.first, key.second);
      break;
    }
    case proto::AgentMessage::kExited: {
      const auto& exited = message.exited();
      if (agent.running.erase(exited.rank()) == 0) break;
      if (exited.rank() == input_.rank()) input_.stop();  // nobody else wants the rest of the input
      sink.onExit(exited.rank(), exited.pid(), ExitStatus{exited.signaled(), exited.value()});
      break;
    }
    case proto::AgentMessage::kInputCredit:
      if (agent.link->target().host == inputHost_) input_.onCredit(message.input_credit());
      break;
    case proto::AgentMessage::kFinished:
      agent.finished = true;
      for (const auto& [rank, stream] : agent.openOutput) sink.onOutputClosed(rank, stream);
      agent.openOutput.clear();
      break;
    case proto::AgentMessage::kRefused:
      lose(agent, "zmpid ended the job: " + printable(message.refused().reason()), sink);
      break;
    default:
      break;  // heartbeats, and anything a newer agent may add
  }
}

void RemoteLauncher::grantCredit(Agent& agent) {
  if (agent.unacknowledged < static_cast<uint64_t>(kOutputCreditWindow / 4)) return;
  proto::AgentMessage credit;
  credit.mutable_credit()->set_bytes(agent.unacknowledged);
  agent.link->send(std::move(credit));
  agent.unacknowledged = 0;
}

void RemoteLauncher::lose(Agent& agent, const std::string& why, LaunchSink& sink) {
  agent.lost = true;
  if (agent.link->target().host == inputHost_) input_.stop();
  const std::vector<int> ranks(agent.running.begin(), agent.running.end());
  agent.running.clear();
  for (const auto& [rank, stream] : agent.openOutput) sink.onOutputClosed(rank, stream);
  agent.openOutput.clear();
  sink.onHostLost(agent.link->target().host, ranks,
                  "zmpirun lost contact with zmpid on " + agent.link->target().describe() + ": " + why + ".");
}

std::optional<std::chrono::steady_clock::time_point> RemoteLauncher::nextDeadline() const {
  std::optional<Clock::time_point> next;
  for (const auto& [host, agent] : agents_) {
    if (!live(agent)) continue;
    const auto due = agent.lastHeard + settings_.heartbeatTimeout;
    if (!next || due < *next) next = due;
  }
  return next;
}

void RemoteLauncher::signalAll(int signal) {
  for (auto& [host, agent] : agents_) {
    if (!live(agent) || agent.running.empty()) continue;
    proto::AgentMessage message;
    message.mutable_signal()->set_signal(signal);
    agent.link->send(std::move(message));
  }
}

bool RemoteLauncher::anyRunning() const {
  for (const auto& [host, agent] : agents_) {
    if (live(agent) && !agent.running.empty()) return true;
  }
  return false;
}

bool RemoteLauncher::anyOutputOpen() const {
  for (const auto& [host, agent] : agents_) {
    if (live(agent) && (!agent.openOutput.empty() || agent.finishSent)) return true;
  }
  return false;
}

void RemoteLauncher::finish() {
  input_.stop();
  for (auto& [host, agent] : agents_) {
    if (!live(agent) || agent.finishSent) continue;
    proto::AgentMessage message;
    message.mutable_finish();
    agent.link->send(std::move(message));
    agent.finishSent = true;
  }
}

void RemoteLauncher::closeOutput(LaunchSink& sink) {
  for (auto& [host, agent] : agents_) {
    for (const auto& [rank, stream] : agent.openOutput) sink.onOutputClosed(rank, stream);
    agent.openOutput.clear();
    if (agent.accepted && !agent.lost && !agent.finished) {
      log::get("runtime")->warn("zmpid on {} did not confirm the end of the job", agent.link->target().describe());
      agent.finished = true;
    }
  }
}

}  // namespace zmpi::runtime
