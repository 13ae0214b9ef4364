#pragma once
// Starts ranks on other hosts through their zmpid agents and follows them like local ones:
// output and exits arrive as signed messages, signals and the end of the job go back the
// same way. One AgentLink (and session) per host. zmpirun's stdin goes to the rank that
// receives it, through its agent, within the input window (remote_input.h).
//
// Start-up is all or nothing per agent and bounded: every agent is asked at once, and
// start() returns when each has accepted, or throws LaunchError naming the host, address
// and port of the first that refused or did not answer within the agent timeout.
//
// During the job an agent counts as lost when its connection closes (the agent died) or
// when nothing came from it for the heartbeat timeout (host down, link cut). Its ranks
// are then reported through LaunchSink::onHostLost and the job monitor ends the job; the
// agent, hearing nothing from zmpirun either, ends those ranks itself.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "runtime/common/agent_codec.h"
#include "runtime/common/remote_input.h"
#include "runtime/zmpirun/agent_link.h"
#include "runtime/zmpirun/heartbeat_sender.h"
#include "runtime/zmpirun/launcher.h"

namespace zmpi::runtime {

struct RemoteSettings {
  std::string jobId;
  std::string jobSecret;                              // sealed into every Launch for the agent to give its ranks
  std::chrono::milliseconds agentTimeout{5000};       // for each agent's answer to the launch
  std::chrono::milliseconds heartbeatInterval{1000};  // both directions
  std::chrono::milliseconds heartbeatTimeout{3000};   // silence that means "gone"
  std::chrono::milliseconds killGrace{500};           // the agents' own SIGTERM-to-SIGKILL wait
};

class RemoteLauncher : public Launcher {
 public:
  // `stdinSource`: the descriptor to forward to a remote rank that receives stdin (normally 0).
  RemoteLauncher(const Secret& secret, const std::map<std::string, AgentTarget>& agents, const RemoteSettings& settings,
                 int stdinSource);
  ~RemoteLauncher() override;

  void start(const std::vector<RankLaunch>& ranks) override;
  void prepare(PollSet& set, const LaunchSink& sink) override;
  void handle(const PollSet& set, LaunchSink& sink) override;
  std::optional<std::chrono::steady_clock::time_point> nextDeadline() const override;
  void signalAll(int signal) override;
  bool anyRunning() const override;
  bool anyOutputOpen() const override;
  void finish() override;
  void closeOutput(LaunchSink& sink) override;

 private:
  using Clock = std::chrono::steady_clock;
  struct Agent {
    std::unique_ptr<AgentLink> link;
    std::vector<int> ranks;
    std::set<int> running;
    std::set<std::pair<int, Stream>> openOutput;
    bool accepted = false;
    bool lost = false;
    bool finishSent = false;
    bool finished = false;
    Clock::time_point lastHeard;
    uint64_t unacknowledged = 0;  // output taken (as charged, agent_codec.h) and not yet credited
    size_t socketIndex = kNotPolled;
    size_t monitorIndex = kNotPolled;
  };
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);

  bool live(const Agent& agent) const { return agent.accepted && !agent.lost && !agent.finished; }
  proto::Launch launchFor(const Agent& agent, const std::vector<RankLaunch>& ranks) const;
  void awaitAcceptance();
  void receive(Agent& agent, LaunchSink& sink);
  void deliver(Agent& agent, const proto::AgentMessage& message, LaunchSink& sink);
  // Returns the output taken from `agent` as credit, once it is a quarter window.
  void grantCredit(Agent& agent);
  void lose(Agent& agent, const std::string& why, LaunchSink& sink);

  const Secret& secret_;
  AgentCodec codec_;
  RemoteSettings settings_;
  std::map<std::string, Agent> agents_;  // by host name
  int stdinSource_;
  InputSender input_;
  std::string inputHost_;  // the host of the rank that receives stdin, if remote
  HeartbeatSender heartbeats_;
};

}  // namespace zmpi::runtime
