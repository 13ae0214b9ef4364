#pragma once
// One job on this agent: the ranks a launcher asked for, and the launcher's liveness.
// The session forwards the ranks' output (within the credit the launcher grants, so a
// launcher that cannot keep up slows the ranks down instead of growing our memory), their
// exits, and a heartbeat; it feeds zmpirun's stdin to the rank that receives it (within
// the input window, remote_input.h; the other ranks read /dev/null); it ends the ranks
// when asked, and by itself when the launcher falls silent for the heartbeat timeout
// (SIGTERM, then SIGKILL after the kill grace).
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/common/agent_codec.h"
#include "runtime/common/rank_group.h"
#include "runtime/common/remote_input.h"

namespace zmpi::runtime {

class Session : private RankEvents {
 public:
  using Clock = std::chrono::steady_clock;
  // Sends one message to this session's launcher (the agent fills in session, sequence
  // and signature). False if it could not be queued (the launcher is gone or stalled).
  using Send = std::function<bool(proto::AgentMessage&&)>;

  Session(std::string sessionId, std::string routingId, const proto::Launch& launch, Send send);
  ~Session() override;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Starts every rank or none: on a failure the ranks already started are killed (and
  // reaped with the session), and a RequestError names the rank and the reason.
  std::vector<pid_t> start(const std::vector<RankSpawn>& ranks);

  bool send(proto::AgentMessage&& message) { return send_(std::move(message)); }
  // A verified message from the launcher (sequence already checked by the agent).
  void onMessage(const proto::AgentMessage& message);
  // This agent is stopping: end the ranks as if the launcher had vanished.
  void shutdown();

  void prepare(PollSet& set);
  void handle(const PollSet& set);
  void reapExited();
  // Runs the timers: heartbeats, the launcher's liveness, the kill grace, the end.
  void tick(Clock::time_point now);
  std::optional<Clock::time_point> nextDeadline() const;
  // The session is over and can be destroyed.
  bool done() const { return done_; }

  const std::string& id() const { return sessionId_; }
  const std::string& routingId() const { return routingId_; }
  const std::string& jobId() const { return jobId_; }
  std::vector<pid_t> unreaped() const { return group_.unreaped(); }
  uint64_t& lastSequence() { return lastSequence_; }
  uint64_t& lastBeat() { return lastBeat_; }

 private:
  void onOutput(int rank, Stream stream, std::string_view bytes) override;
  void onOutputClosed(int rank, Stream stream) override;
  void onExit(int rank, pid_t pid, const ExitStatus& status) override;

  void endRanks(const char* why);
  // Tells the launcher what InputSink has written (or that the rank's stdin closed).
  void sendInputCredit();
  // Every rank has exited and the launcher is done with them: SIGKILL to what they left
  // in their process group and to the orphans of the job adopted here, so their output
  // pipes reach end of file once read.
  void endLeftovers();
  void complete();

  std::string sessionId_;
  std::string routingId_;
  std::string jobId_;
  Send send_;
  RankGroup group_;
  int stdinRank_ = -1;  // the rank of this session that receives zmpirun's stdin, if any
  InputSink input_;
  std::chrono::milliseconds heartbeatInterval_;
  std::chrono::milliseconds heartbeatTimeout_;
  std::chrono::milliseconds killGrace_;
  Clock::time_point lastHeard_;
  Clock::time_point nextBeat_;
  int64_t credit_ = kOutputCreditWindow;
  uint64_t lastSequence_ = 0;
  uint64_t lastBeat_ = 0;
  bool launcherGone_ = false;  // silent past the timeout, or this agent is stopping
  bool finishAsked_ = false;   // the launcher sent Finish
  bool leftoversEnded_ = false;
  std::optional<Clock::time_point> killAt_;
  bool done_ = false;
};

}  // namespace zmpi::runtime
