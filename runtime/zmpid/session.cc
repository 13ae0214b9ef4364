#include "runtime/zmpid/session.h"

#include <csignal>

#include "runtime/common/orphans.h"
#include "runtime/common/spawn.h"
#include "runtime/zmpid/launch_request.h"
#include "transport/job_files.h"
#include "transport/log.h"
#include "transport/wire.h"

namespace zmpi::runtime {
namespace {

bool allowedSignal(int signal) {
  switch (signal) {
    case SIGTERM:
    case SIGKILL:
    case SIGINT:
    case SIGHUP:
    case SIGCONT:
    case SIGUSR1:
    case SIGUSR2:
      return true;
    default:
      return false;
  }
}

}  // namespace

Session::Session(std::string sessionId, std::string routingId, const proto::Launch& launch, Send send)
    : sessionId_(std::move(sessionId)),
      routingId_(std::move(routingId)),
      jobId_(launch.job_id()),
      send_(std::move(send)),
      heartbeatInterval_(launch.heartbeat_interval_ms()),
      heartbeatTimeout_(launch.heartbeat_timeout_ms()),
      killGrace_(launch.kill_grace_ms()),
      lastHeard_(Clock::now()),
      nextBeat_(Clock::now() + heartbeatInterval_) {
  for (const proto::RankSpec& spec : launch.ranks()) {
    if (spec.receives_stdin()) stdinRank_ = spec.rank();  // planLaunch allows one at most
  }
}

Session::~Session() {
  // Normally done() by now; if the agent itself is failing, no rank may outlive it.
  if (group_.anyRunning()) group_.signalAll(SIGKILL);
}

std::vector<pid_t> Session::start(const std::vector<RankSpawn>& ranks) {
  // What jobs killed together with their launcher and ranks (SIGKILL) left on this host.
  if (int removed = transport::removeStaleJobFiles(transport::kStaleFileAge); removed > 0) {
    log::get("runtime")->info("removed {} file(s) that killed jobs left in /dev/shm and /tmp", removed);
  }
  std::vector<pid_t> pids;
  for (const RankSpawn& spawn : ranks) {
    try {
      if (spawn.rank == stdinRank_) {
        Pipe input = makePipe();
        RankSpawn withInput = spawn;
        withInput.stdinFd = input.read.get();
        pids.push_back(group_.spawn(withInput));
        input_ = InputSink(spawn.rank, std::move(input.write));
      } else {
        pids.push_back(group_.spawn(spawn));
      }
    } catch (const SpawnError& error) {
      group_.signalAll(SIGKILL);  // all or nothing: the destructor reaps them
      done_ = true;
      throw RequestError(error.what(), spawn.rank);
    }
  }
  log::get("runtime")->info("job {}: started {} rank(s) in process group {}", jobId_, pids.size(),
                            group_.processGroup());
  return pids;
}

void Session::onMessage(const proto::AgentMessage& message) {
  lastHeard_ = Clock::now();
  switch (message.body_case()) {
    case proto::AgentMessage::kHeartbeat:
      break;
    case proto::AgentMessage::kSignal:
      if (allowedSignal(message.signal().signal())) {
        group_.signalAll(message.signal().signal());
      } else {
        log::get("runtime")->warn("job {}: signal {} is not one a launcher may send; ignored", jobId_,
                                  message.signal().signal());
      }
      break;
    case proto::AgentMessage::kCredit:
      // Never more than the window: a confused launcher cannot unbound our buffers.
      credit_ = std::min<int64_t>(kOutputCreditWindow, credit_ + static_cast<int64_t>(std::min<uint64_t>(
                                                                     message.credit().bytes(), kOutputCreditWindow)));
      break;
    case proto::AgentMessage::kInput:
      if (const std::string why = input_.accept(message.input()); !why.empty()) {
        log::get("runtime")->warn("job {}: {}; the rank's stdin is closed", jobId_, why);
      }
      sendInputCredit();
      break;
    case proto::AgentMessage::kFinish:
      finishAsked_ = true;
      if (group_.anyRunning()) group_.signalAll(SIGKILL);  // the launcher is done with them
      break;
    default:
      log::get("runtime")->warn("job {}: unexpected message {} from the launcher; ignored", jobId_,
                                static_cast<int>(message.body_case()));
  }
}

void Session::shutdown() { endRanks("zmpid is stopping"); }

void Session::prepare(PollSet& set) {
  if (credit_ > 0) group_.prepare(set);  // no credit: the pipes fill up and the ranks wait
  input_.prepare(set);
}

void Session::handle(const PollSet& set) {
  group_.handleOutput(set, *this);
  input_.handle(set);
  sendInputCredit();
}

void Session::sendInputCredit() {
  std::optional<proto::InputCredit> credit = input_.takeCredit();
  if (!credit || launcherGone_) return;
  proto::AgentMessage message;
  *message.mutable_input_credit() = std::move(*credit);
  send_(std::move(message));
}

void Session::reapExited() { group_.reapExited(*this); }

void Session::onOutput(int rank, Stream stream, std::string_view bytes) {
  credit_ -= outputCharge(bytes.size());  // as zmpirun counts it (agent_codec.h)
  if (launcherGone_) return;
  proto::AgentMessage message;
  auto* output = message.mutable_output();
  output->set_rank(rank);
  output->set_stream(static_cast<int>(stream));
  output->set_data(bytes.data(), bytes.size());
  send_(std::move(message));
}

void Session::onOutputClosed(int rank, Stream stream) {
  if (launcherGone_) return;
  proto::AgentMessage message;
  message.mutable_output_closed()->set_rank(rank);
  message.mutable_output_closed()->set_stream(static_cast<int>(stream));
  send_(std::move(message));
}

void Session::onExit(int rank, pid_t pid, const ExitStatus& status) {
  log::get("runtime")->info("job {}: rank {} (pid {}) ended with {}", jobId_, rank, pid, status.describe());
  if (rank == stdinRank_) input_.close();  // the launcher stops reading its stdin on the exit itself
  if (launcherGone_) return;
  proto::AgentMessage message;
  auto* exited = message.mutable_exited();
  exited->set_rank(rank);
  exited->set_pid(pid);
  exited->set_signaled(status.signaled);
  exited->set_value(status.value);
  send_(std::move(message));
}

void Session::endRanks(const char* why) {
  if (launcherGone_) return;
  launcherGone_ = true;
  if (!group_.anyRunning()) return;
  log::get("runtime")->warn("job {}: {}; ending its ranks (SIGTERM, SIGKILL after {} ms)", jobId_, why,
                            killGrace_.count());
  group_.signalAll(SIGTERM);
  killAt_ = Clock::now() + killGrace_;
}

void Session::tick(Clock::time_point now) {
  if (done_) return;
  if (!launcherGone_ && now >= lastHeard_ + heartbeatTimeout_) {
    endRanks(("no message from zmpirun for " + std::to_string(heartbeatTimeout_.count()) + " ms").c_str());
  }
  if (killAt_ && now >= *killAt_) {
    killAt_.reset();
    if (group_.anyRunning()) group_.signalAll(SIGKILL);
  }
  if (!launcherGone_ && now >= nextBeat_) {
    proto::AgentMessage beat;
    beat.mutable_heartbeat();
    send_(std::move(beat));
    nextBeat_ = now + heartbeatInterval_;
  }
  if ((finishAsked_ || launcherGone_) && !group_.anyRunning()) {
    if (!leftoversEnded_) endLeftovers();
    // What the ranks wrote before they ended is still forwarded, within the launcher's
    // credit (its stdout may be a paused pager); a launcher gone wants nothing more.
    if (launcherGone_ || !group_.anyOutputOpen()) complete();
  }
}

void Session::endLeftovers() {
  leftoversEnded_ = true;
  group_.finish();
  const std::string mark = "ZMPI_JOB_ID=" + jobId_;
  if (int ended = endAdoptedOrphans([&](pid_t pid) { return environmentHas(pid, mark); }); ended > 0) {
    log::get("runtime")->info("job {}: ended {} process(es) its ranks left behind", jobId_, ended);
  }
}

void Session::complete() {
  input_.close();
  if (!leftoversEnded_) endLeftovers();
  if (int removed = transport::removeJobFiles(transport::jobHashOf(jobId_)); removed > 0) {
    log::get("runtime")->info("job {}: removed {} file(s) its ranks left in /dev/shm and /tmp", jobId_, removed);
  }
  group_.closeOutput(*this);
  if (!launcherGone_) {
    proto::AgentMessage finished;
    finished.mutable_finished();
    send_(std::move(finished));
  }
  done_ = true;
  log::get("runtime")->info("job {}: over", jobId_);
}

std::optional<Session::Clock::time_point> Session::nextDeadline() const {
  if (done_) return std::nullopt;
  std::optional<Clock::time_point> next;
  auto consider = [&](Clock::time_point t) {
    if (!next || t < *next) next = t;
  };
  if (!launcherGone_) {
    consider(nextBeat_);
    consider(lastHeard_ + heartbeatTimeout_);
  }
  if (killAt_) consider(*killAt_);
  if ((finishAsked_ || launcherGone_) && !group_.anyRunning() && (launcherGone_ || !group_.anyOutputOpen())) {
    consider(Clock::now());
  }
  return next;
}

}  // namespace zmpi::runtime
