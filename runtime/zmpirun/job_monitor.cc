#include "runtime/zmpirun/job_monitor.h"

#include <algorithm>
#include <csignal>
#include <cstdio>

#include "runtime/common/signals.h"
#include "runtime/zmpirun/messages.h"
#include "transport/log.h"

namespace zmpi::runtime {

JobMonitor::JobMonitor(Launcher& launcher, JobEventQueue& events, OutputForwarder& output,
                       std::vector<std::string> hosts, const MonitorSettings& settings)
    : launcher_(launcher),
      events_(events),
      output_(output),
      hosts_(std::move(hosts)),
      settings_(settings),
      stopSignals_(openSignalFd({SIGINT, SIGTERM, SIGHUP})),
      ranks_(hosts_.size()) {}

int JobMonitor::run(const std::vector<RankLaunch>& ranks) {
  if (settings_.timeout.count() > 0) jobDeadline_ = Clock::now() + settings_.timeout;
  try {
    launcher_.start(ranks);
  } catch (const LaunchError& error) {
    const std::string program = ranks.empty() ? "" : ranks.front().argv.front();
    fail(kLaunchFailedExitCode, messages::launchFailed(error.rank(), error.host(), program, error.what()));
  }
  lastOutputProgress_ = Clock::now();
  for (;;) {
    const auto now = Clock::now();
    checkTimers(now);
    watchOutput(now);
    if (!launcher_.anyRunning() && allJudged()) {
      if (!finished_) {
        launcher_.finish();
        finished_ = true;
        drainUntil_ = now + settings_.outputDrain;
      }
      if (!launcher_.anyOutputOpen()) break;
      // Sources left unread because the reader is slow are not sources that hang.
      if (outputPaused_) drainUntil_ = std::max(drainUntil_, now + settings_.outputDrain);
      if (now >= drainUntil_) {
        log::get("runtime")->warn("output still open {} ms after the last rank exited; giving up on it",
                                  settings_.outputDrain.count());
        launcher_.closeOutput(*this);
        break;
      }
    }
    PollSet set;
    launcher_.prepare(set, *this);
    output_.prepare(set);
    const size_t signalIndex = set.addFd(stopSignals_.get(), ZMQ_POLLIN);
    set.addFd(events_.fd(), ZMQ_POLLIN);
    std::optional<std::chrono::milliseconds> wait;
    if (auto deadline = nextDeadline()) {
      // Round up: waking a millisecond early would only cost another turn of the loop.
      wait = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
    }
    set.wait(wait);
    output_.handle(set);  // room first, for what the sources bring next
    if (set.readable(signalIndex)) {
      while (int signal = readSignal(stopSignals_.get())) handleStopSignal(signal);
    }
    launcher_.handle(set, *this);
    // Always drained, and after the exits were collected: a join is queued before the
    // rank could exit, so every join that precedes an exit seen above is in this batch.
    handleEvents();
    judgeExits(Clock::now());
  }
  drainOutput();
  if (!message_.empty()) std::fputs(message_.c_str(), stderr);
  return exitCode_.value_or(0);
}

void JobMonitor::watchOutput(Clock::time_point now) {
  auto logger = log::get("runtime");
  if (output_.written() != lastWritten_ || output_.pending() == 0) {
    lastWritten_ = output_.written();
    lastOutputProgress_ = now;
  }
  const bool paused = !output_.accepting();
  if (paused != outputPaused_) {
    outputPaused_ = paused;
    if (paused) {
      logger->debug("{} bytes of output wait for zmpirun's stdout/stderr to take them: the ranks' output is held back",
                    output_.pending());
    } else {
      logger->debug("zmpirun's stdout/stderr take output again");
    }
  }
  if (interrupted_ && output_.pending() > 0 && now >= lastOutputProgress_ + settings_.outputDrain) {
    logger->warn(
        "zmpirun's stdout/stderr took nothing for {} ms after the job was interrupted; dropping {} bytes of "
        "the ranks' output",
        settings_.outputDrain.count(), output_.pending());
    output_.abandon();
    outputPaused_ = false;
  }
}

void JobMonitor::drainOutput() {
  while (output_.pending() > 0) {
    PollSet set;
    output_.prepare(set);
    const size_t signalIndex = set.addFd(stopSignals_.get(), ZMQ_POLLIN);
    std::optional<std::chrono::milliseconds> wait;
    if (interrupted_) {
      wait = std::chrono::ceil<std::chrono::milliseconds>(lastOutputProgress_ + settings_.outputDrain - Clock::now());
    }
    set.wait(wait);
    output_.handle(set);
    if (set.readable(signalIndex)) {
      bool any = false;
      while (int signal = readSignal(stopSignals_.get())) {
        any = true;
        handleStopSignal(signal);
      }
      if (any && output_.pending() > 0) {
        log::get("runtime")->warn("interrupted while writing the ranks' last output; dropping {} bytes",
                                  output_.pending());
        output_.abandon();
      }
    }
    watchOutput(Clock::now());
  }
}

void JobMonitor::onOutput(int rank, Stream stream, std::string_view bytes) { output_.write(rank, stream, bytes); }

void JobMonitor::onOutputClosed(int rank, Stream stream) { output_.close(rank, stream); }

void JobMonitor::onExit(int rank, pid_t pid, const ExitStatus& status) {
  log::get("runtime")->debug("rank {} (pid {}) ended with {}", rank, pid, status.describe());
  RankState& state = ranks_.at(static_cast<size_t>(rank));
  state.exit = status;
  state.pid = pid;
  state.exitedAt = Clock::now();
}

void JobMonitor::onHostLost(const std::string& host, const std::vector<int>& ranks, const std::string& why) {
  auto logger = log::get("runtime");
  if (ranks.empty()) {
    // Its ranks had all exited and been reported: nothing of the job is lost with it.
    logger->warn("{} (no rank of the job was running there)", why);
    return;
  }
  for (int rank : ranks) {
    RankState& state = ranks_.at(static_cast<size_t>(rank));
    // Counted as ended and judged here, once: the launcher will report nothing more for it.
    state.exit = ExitStatus{true, SIGKILL};
    state.exitedAt = Clock::now();
    state.judged = true;
  }
  fail(kHostLostExitCode, messages::hostLost(host, ranks, why));
}

void JobMonitor::handleEvents() {
  auto logger = log::get("runtime");
  for (const JobEvent& event : events_.drain()) {
    if (event.rank < 0 || event.rank >= static_cast<int>(ranks_.size())) continue;
    RankState& state = ranks_[static_cast<size_t>(event.rank)];
    switch (event.kind) {
      case JobEvent::Kind::Joined:
        logger->debug("rank {} joined the job", event.rank);
        state.joined = true;
        break;
      case JobEvent::Kind::Finalizing:
        logger->debug("rank {} is finalizing", event.rank);
        state.finalized = true;
        break;
      case JobEvent::Kind::Aborting:
        logger->debug("rank {} called MPI_Abort with code {}", event.rank, event.code);
        if (!state.aborted) {
          state.aborted = true;
          fail(event.code, messages::abort(event.rank, event.code));
        }
        break;
      case JobEvent::Kind::Goodbye:
        break;
    }
  }
}

void JobMonitor::handleStopSignal(int signal) {
  log::get("runtime")->debug("zmpirun received signal {}", signal);
  if (stopSignaled_ && output_.pending() > 0) output_.abandon();  // asked twice: no more waiting for the reader
  stopSignaled_ = true;
  interrupt();
  if (!ending_) {
    fail(128 + signal, messages::launcherSignaled(signal));
  } else if (!killed_) {
    launcher_.signalAll(SIGKILL);  // asked twice: no more grace
    killed_ = true;
  }
}

void JobMonitor::interrupt() {
  if (!interrupted_) lastOutputProgress_ = Clock::now();  // the reader gets outputDrain from now
  interrupted_ = true;
}

void JobMonitor::judgeExits(Clock::time_point now) {
  for (size_t rank = 0; rank < ranks_.size(); ++rank) {
    if (ranks_[rank].exit && !ranks_[rank].judged) judge(static_cast<int>(rank), now);
  }
}

void JobMonitor::judge(int rank, Clock::time_point now) {
  RankState& state = ranks_[static_cast<size_t>(rank)];
  const ExitStatus& status = *state.exit;
  const std::string& host = hosts_[static_cast<size_t>(rank)];
  if (ending_) {
    // The job is already ending and its outcome is recorded; this is one of the ranks
    // we are ending (or one that ended at the same moment).
  } else if (status.signaled) {
    fail(status.shellCode(), messages::killedBySignal(rank, state.pid, host, status.value));
  } else if (state.finalized) {
    if (status.value != 0) fail(status.value, messages::nonZeroExit(rank, state.pid, host, status.value));
  } else if (state.joined) {
    if (now < state.exitedAt + settings_.eventGrace) return;  // an abort/finalize event may be in flight
    if (status.value != 0) {
      fail(status.value, messages::nonZeroExit(rank, state.pid, host, status.value));
    } else {
      fail(1, messages::exitedImproperly(rank, state.pid, host, true));
    }
  } else if (status.value != 0) {
    fail(status.value, messages::nonZeroExit(rank, state.pid, host, status.value));
  } else if (otherJoinedRankRunning(rank)) {
    // Never called MPI_Init, but others did and now wait for it forever.
    fail(1, messages::exitedImproperly(rank, state.pid, host, false));
  }
  state.judged = true;
}

bool JobMonitor::otherJoinedRankRunning(int rank) const {
  for (size_t other = 0; other < ranks_.size(); ++other) {
    if (static_cast<int>(other) != rank && ranks_[other].joined && !ranks_[other].exit) return true;
  }
  return false;
}

bool JobMonitor::allJudged() const {
  for (const RankState& state : ranks_) {
    if (state.exit && !state.judged) return false;
  }
  return true;
}

void JobMonitor::checkTimers(Clock::time_point now) {
  if (!ending_ && jobDeadline_ && now >= *jobDeadline_) {
    interrupt();  // --timeout bounds zmpirun's time too: no waiting without end for a reader
    fail(kTimeoutExitCode, messages::timeout(static_cast<int>(settings_.timeout.count())));
  }
  if (!startupChecked_ && settings_.startupDeadline && now >= *settings_.startupDeadline) {
    startupChecked_ = true;
    handleEvents();  // joins queued up to now count
    checkStartup();
  }
  if (ending_ && !killed_ && now >= killAt_) {
    if (launcher_.anyRunning()) log::get("runtime")->debug("ranks still running after SIGTERM: sending SIGKILL");
    launcher_.signalAll(SIGKILL);
    killed_ = true;
  }
}

// At the rendezvous' deadline: if some ranks joined and others are still running without
// having called MPI_Init, the joined ones are about to fail in MPI_Init. Say who is
// missing, and where, before their errors arrive (the rendezvous knows no host names).
void JobMonitor::checkStartup() {
  if (ending_) return;
  bool anyJoined = false;
  std::vector<int> missing;
  for (size_t rank = 0; rank < ranks_.size(); ++rank) {
    anyJoined = anyJoined || ranks_[rank].joined;
    if (!ranks_[rank].joined && !ranks_[rank].exit) missing.push_back(static_cast<int>(rank));
  }
  if (!anyJoined || missing.empty()) return;  // not an MPI job, or everyone made it
  fail(1, messages::startupTimeout(settings_.startupTimeout.count(), missing, hosts_));
}

std::optional<JobMonitor::Clock::time_point> JobMonitor::nextDeadline() const {
  std::optional<Clock::time_point> next;
  auto consider = [&](Clock::time_point t) {
    if (!next || t < *next) next = t;
  };
  if (!ending_ && jobDeadline_) consider(*jobDeadline_);
  if (!startupChecked_ && settings_.startupDeadline) consider(*settings_.startupDeadline);
  if (ending_ && !killed_) consider(killAt_);
  for (const RankState& state : ranks_) {
    if (state.exit && !state.judged) consider(state.exitedAt + settings_.eventGrace);
  }
  if (finished_) consider(drainUntil_);
  if (interrupted_ && output_.pending() > 0) consider(lastOutputProgress_ + settings_.outputDrain);
  if (auto launcherDue = launcher_.nextDeadline()) consider(*launcherDue);
  return next;
}

void JobMonitor::fail(int exitCode, std::string message) {
  if (exitCode_) return;
  exitCode_ = exitCode;
  message_ = std::move(message);
  ending_ = true;
  killAt_ = Clock::now() + settings_.killGrace;
  launcher_.signalAll(SIGTERM);
}

}  // namespace zmpi::runtime
