#pragma once
// The life of a job after its ranks are placed: start them, forward their output, follow
// their rendezvous events (joined, finalizing, aborting) and exits, and end the whole job
// at the first failure, the first MPI_Abort, the time limit, or a signal to zmpirun.
// Everything happens on one thread in one poll loop; nothing sleeps, every wait has a
// deadline.
//
// Deciding why a rank died needs care: its "aborting" or "finalizing" event travels over
// the rendezvous connection and can arrive after the kernel reports the exit. A rank that
// joined the job (called MPI_Init) and exited without either event is therefore judged
// only after a short grace period for a late event; its join itself is always known in
// time, because the server reports a join before the rank can leave MPI_Init.
//
// zmpirun's stdout/stderr are written without blocking (output_forwarder.h): a reader
// that does not read (a paused pager, a full pipe) holds back the ranks' output, never
// this loop. At the end of a job everything taken is written out before run() returns,
// for as long as the reader takes it; a stop signal then gives up on it at once. A job
// ended by a stop signal or the time limit gives up on output that nobody has taken for
// outputDrain.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "runtime/common/output_forwarder.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/job_events.h"
#include "runtime/zmpirun/launcher.h"

namespace zmpi::runtime {

struct MonitorSettings {
  std::chrono::seconds timeout{0};            // 0: no time limit
  std::chrono::milliseconds killGrace{500};   // SIGTERM, then SIGKILL after this
  std::chrono::milliseconds eventGrace{250};  // how long an exit waits for a late event
  // Output still open after every rank exited (a process that escaped the job holds a
  // pipe) is given up after this, not counting time zmpirun's stdout was not taking
  // output. Also how long zmpirun, ended by a signal or --timeout, waits for a reader that
  // takes nothing before it drops the output it holds (ZMPI_OUTPUT_DRAIN_MS).
  std::chrono::milliseconds outputDrain{2000};
  // When the rendezvous gives up on ranks that have not called MPI_Init (it started its
  // clock at this moment); unset: never. startupTimeout is that timeout, for the message.
  std::optional<std::chrono::steady_clock::time_point> startupDeadline;
  std::chrono::milliseconds startupTimeout{0};
};

// zmpirun's exit status when the time limit ends the job (as timeout(1) does).
inline constexpr int kTimeoutExitCode = 124;
// ... when a rank cannot be started (as a shell does for a command it cannot run).
inline constexpr int kLaunchFailedExitCode = 127;
// ... when contact with a host's agent is lost and its ranks' fate is unknown.
inline constexpr int kHostLostExitCode = 1;

class JobMonitor : private LaunchSink {
 public:
  // `hosts[r]` is rank r's host, for messages.
  JobMonitor(Launcher& launcher, JobEventQueue& events, OutputForwarder& output, std::vector<std::string> hosts,
             const MonitorSettings& settings);

  // Starts `ranks` and runs the job to its end. Returns zmpirun's exit status: 0, or the
  // first failure's (the rank's exit code, 128+signal, the MPI_Abort code, ...). The
  // failure's message is printed to stderr after the last output of the ranks.
  int run(const std::vector<RankLaunch>& ranks);
  // The failure's message after run() (empty if the job succeeded).
  const std::string& message() const { return message_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct RankState {
    bool joined = false;
    bool finalized = false;
    bool aborted = false;
    std::optional<ExitStatus> exit;
    pid_t pid = 0;
    Clock::time_point exitedAt;
    bool judged = false;  // its exit has been classified
  };

  void onOutput(int rank, Stream stream, std::string_view bytes) override;
  void onOutputClosed(int rank, Stream stream) override;
  void onExit(int rank, pid_t pid, const ExitStatus& status) override;
  void onHostLost(const std::string& host, const std::vector<int>& ranks, const std::string& why) override;
  bool acceptingOutput() const override { return output_.accepting(); }

  void handleEvents();
  void handleStopSignal(int signal);
  void judgeExits(Clock::time_point now);
  void judge(int rank, Clock::time_point now);
  void checkTimers(Clock::time_point now);
  void checkStartup();
  bool allJudged() const;
  bool otherJoinedRankRunning(int rank) const;
  std::optional<Clock::time_point> nextDeadline() const;
  // Notes the forwarder's progress and back-pressure; gives up on output nobody takes
  // once a stop signal ended the job.
  void watchOutput(Clock::time_point now);
  // After the job: writes what the forwarder still holds (see the header comment).
  void drainOutput();
  // A stop signal or the time limit ended the job: from now on, output that nobody takes
  // for outputDrain is dropped.
  void interrupt();

  // Records the job's outcome (the first one wins) and starts ending every rank.
  void fail(int exitCode, std::string message);

  Launcher& launcher_;
  JobEventQueue& events_;
  OutputForwarder& output_;
  std::vector<std::string> hosts_;
  MonitorSettings settings_;
  UniqueFd stopSignals_;  // SIGINT, SIGTERM, SIGHUP to zmpirun
  std::vector<RankState> ranks_;

  std::optional<int> exitCode_;
  std::string message_;
  bool ending_ = false;
  bool killed_ = false;
  Clock::time_point killAt_;
  std::optional<Clock::time_point> jobDeadline_;
  bool startupChecked_ = false;
  bool finished_ = false;
  Clock::time_point drainUntil_;
  bool stopSignaled_ = false;  // zmpirun got SIGINT/SIGTERM/SIGHUP
  bool interrupted_ = false;   // ... or the time limit passed: output nobody takes is dropped
  bool outputPaused_ = false;  // the forwarder was not accepting at the last look
  uint64_t lastWritten_ = 0;   // the forwarder's written() at the last look
  Clock::time_point lastOutputProgress_;
};

}  // namespace zmpi::runtime
