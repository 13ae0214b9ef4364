// The job monitor's decisions, driven by a scripted launcher: which exits and events make
// a job fail, with which status and message, and how ranks are ended (SIGTERM, then
// SIGKILL after the grace). Deterministic where the end-to-end tests would be racy.
#include "runtime/zmpirun/job_monitor.h"

#include <fcntl.h>

#include <catch2/catch.hpp>
#include <csignal>

using namespace zmpi::runtime;

namespace {

// Plays a script of exits and rendezvous events, one step per turn of the monitor's loop.
class ScriptedLauncher : public Launcher {
 public:
  struct Step {
    std::optional<JobEvent> event;  // pushed to the queue, as the rendezvous thread would
    int exitRank = -1;              // else: this rank exits with `status`
    ExitStatus status;
  };

  ScriptedLauncher(int ranks, JobEventQueue& events, std::vector<Step> steps, bool ignoreTerm = false)
      : exited_(static_cast<size_t>(ranks), false),
        events_(events),
        steps_(std::move(steps)),
        ignoreTerm_(ignoreTerm),
        ready_(::open("/dev/null", O_RDONLY | O_CLOEXEC)) {}

  void start(const std::vector<RankLaunch>&) override {}
  void prepare(PollSet& set, const LaunchSink&) override {
    // /dev/null is always readable: an immediate turn while there is something to deliver.
    if (next_ < steps_.size() || pendingSignal_ != 0) set.addFd(ready_.get(), ZMQ_POLLIN);
  }
  void handle(const PollSet&, LaunchSink& sink) override {
    if (pendingSignal_ != 0) {
      const int signal = std::exchange(pendingSignal_, 0);
      if (signal == SIGTERM && ignoreTerm_) return;
      for (size_t rank = 0; rank < exited_.size(); ++rank) {
        if (!exited_[rank]) exit(sink, static_cast<int>(rank), ExitStatus{true, signal});
      }
      return;
    }
    if (next_ >= steps_.size()) return;
    const Step& step = steps_[next_++];
    if (step.event) events_.push(*step.event);
    if (step.exitRank >= 0) exit(sink, step.exitRank, step.status);
  }
  void signalAll(int signal) override {
    signals.push_back(signal);
    pendingSignal_ = signal;
  }
  bool anyRunning() const override {
    for (bool done : exited_) {
      if (!done) return true;
    }
    return false;
  }
  bool anyOutputOpen() const override { return false; }
  void finish() override { finished = true; }
  void closeOutput(LaunchSink&) override {}

  std::vector<int> signals;
  bool finished = false;

 private:
  void exit(LaunchSink& sink, int rank, const ExitStatus& status) {
    exited_[static_cast<size_t>(rank)] = true;
    sink.onExit(rank, 1000 + rank, status);
  }
  std::vector<bool> exited_;
  JobEventQueue& events_;
  std::vector<Step> steps_;
  size_t next_ = 0;
  bool ignoreTerm_;
  int pendingSignal_ = 0;
  UniqueFd ready_;
};

using Step = ScriptedLauncher::Step;
using Kind = JobEvent::Kind;
Step event(Kind kind, int rank, int code = 0) { return Step{JobEvent{kind, rank, code}, -1, {}}; }
Step exits(int rank, int code) { return Step{std::nullopt, rank, ExitStatus{false, code}}; }
Step killed(int rank, int signal) { return Step{std::nullopt, rank, ExitStatus{true, signal}}; }

struct Outcome {
  int status;
  std::string message;
  std::vector<int> signals;
};

Outcome runScript(int ranks, std::vector<Step> steps, bool ignoreTerm = false) {
  JobEventQueue events;
  ScriptedLauncher launcher(ranks, events, std::move(steps), ignoreTerm);
  char path[] = "/tmp/zmpi-monitor-XXXXXX";  // the monitor writes no rank output here
  UniqueFd sinkFile(::mkstemp(path));
  ::unlink(path);
  OutputForwarder output(sinkFile.get(), sinkFile.get(), false);
  MonitorSettings settings;
  settings.eventGrace = std::chrono::milliseconds(50);
  settings.killGrace = std::chrono::milliseconds(100);
  JobMonitor monitor(launcher, events, output, std::vector<std::string>(static_cast<size_t>(ranks), "hostA"), settings);
  const int status = monitor.run({});
  CHECK(launcher.finished);
  return {status, monitor.message(), launcher.signals};
}

}  // namespace

TEST_CASE("monitor: ranks that join, finalize and exit 0 make a successful job") {
  const Outcome outcome = runScript(2, {event(Kind::Joined, 0), event(Kind::Joined, 1), event(Kind::Finalizing, 0),
                                        event(Kind::Finalizing, 1), exits(0, 0), exits(1, 0)});
  CHECK(outcome.status == 0);
  CHECK(outcome.message.empty());
  CHECK(outcome.signals.empty());
}

TEST_CASE("monitor: programs that never join (hostname) succeed") {
  CHECK(runScript(3, {exits(0, 0), exits(2, 0), exits(1, 0)}).status == 0);
}

TEST_CASE("monitor: the first non-zero exit is the job's status; the others are ended") {
  const Outcome outcome = runScript(3, {exits(1, 4), exits(0, 9)});
  CHECK(outcome.status == 4);
  CHECK(outcome.message.find("Process rank: 1") != std::string::npos);
  CHECK(outcome.message.find("Node:         hostA") != std::string::npos);
  CHECK(outcome.signals.front() == SIGTERM);
}

TEST_CASE("monitor: a signal death is 128+signal with rank, pid, host and signal named") {
  const Outcome outcome = runScript(2, {event(Kind::Joined, 0), event(Kind::Joined, 1), killed(1, SIGKILL)});
  CHECK(outcome.status == 137);
  CHECK(outcome.message.find("process rank 1 with PID 1001 on node hostA exited on signal 9 (Killed)") !=
        std::string::npos);
}

TEST_CASE("monitor: MPI_Abort ends the job with its code") {
  const Outcome outcome = runScript(2, {event(Kind::Joined, 0), event(Kind::Joined, 1), event(Kind::Aborting, 0, 42)});
  CHECK(outcome.status == 42);
  CHECK(outcome.message.find("MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD\nwith errorcode 42.") !=
        std::string::npos);
  CHECK(outcome.signals.front() == SIGTERM);
}

TEST_CASE("monitor: an abort event arriving just after the rank's exit still counts as an abort") {
  const Outcome outcome =
      runScript(2, {event(Kind::Joined, 0), event(Kind::Joined, 1), exits(1, 5), event(Kind::Aborting, 1, 5)});
  CHECK(outcome.status == 5);
  CHECK(outcome.message.find("MPI_ABORT was invoked on rank 1") != std::string::npos);
}

TEST_CASE("monitor: a joined rank exiting 0 without finalizing is an error after the grace") {
  const Outcome outcome = runScript(2, {event(Kind::Joined, 0), event(Kind::Joined, 1), exits(0, 0)});
  CHECK(outcome.status == 1);
  CHECK(outcome.message.find("process rank 0 with PID 1000 on\nnode hostA exiting improperly") != std::string::npos);
  CHECK(outcome.message.find("called MPI_Init but exited without calling MPI_Finalize") != std::string::npos);
}

TEST_CASE("monitor: a late finalize event within the grace makes the exit clean") {
  const Outcome outcome = runScript(1, {event(Kind::Joined, 0), exits(0, 0), event(Kind::Finalizing, 0)});
  CHECK(outcome.status == 0);
}

TEST_CASE("monitor: a rank that never joins while a joined rank runs is an error") {
  const Outcome outcome = runScript(2, {event(Kind::Joined, 1), exits(0, 0)});
  CHECK(outcome.status == 1);
  CHECK(outcome.message.find("did not call MPI_Init before exiting") != std::string::npos);
}

TEST_CASE("monitor: ranks ignoring SIGTERM get SIGKILL after the grace") {
  const Outcome outcome = runScript(2, {exits(0, 2)}, /*ignoreTerm=*/true);
  CHECK(outcome.status == 2);
  REQUIRE(outcome.signals.size() >= 2);
  CHECK(outcome.signals[0] == SIGTERM);
  CHECK(outcome.signals[1] == SIGKILL);
}
