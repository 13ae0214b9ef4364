#pragma once
// How ranks are started and watched, behind one small interface so that the job monitor
// does not care where they run: LocalLauncher forks them on this machine; a launcher that
// asks a zmpid agent on another host can implement the same operations.
#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "runtime/common/exit_status.h"
#include "runtime/common/output_forwarder.h"
#include "runtime/common/poll_set.h"

namespace zmpi::runtime {

// Everything needed to start one rank, already resolved on the launching side.
struct RankLaunch {
  int rank = 0;
  std::string host;
  std::string executable;         // path to run (see findExecutable)
  std::vector<std::string> argv;  // argv[0] as the user typed the program
  std::vector<std::string> environment;
  std::string workingDirectory;  // empty: the launcher's
  bool receivesStdin = false;
};

// What a launcher reports to the job monitor, always from the monitor's thread.
class LaunchSink {
 public:
  virtual ~LaunchSink() = default;
  virtual void onOutput(int rank, Stream stream, std::string_view bytes) = 0;
  virtual void onOutputClosed(int rank, Stream stream) = 0;
  virtual void onExit(int rank, pid_t pid, const ExitStatus& status) = 0;
};

// Starting a rank failed; the ranks started before it are running and must be ended.
class LaunchError : public std::runtime_error {
 public:
  LaunchError(int rank, std::string host, const std::string& what)
      : std::runtime_error(what), rank_(rank), host_(std::move(host)) {}
  int rank() const { return rank_; }
  const std::string& host() const { return host_; }

 private:
  int rank_;
  std::string host_;
};

class Launcher {
 public:
  virtual ~Launcher() = default;

  // Starts `ranks` in order; throws LaunchError for the first that cannot be started.
  virtual void start(const std::vector<RankLaunch>& ranks) = 0;

  // One turn of the monitor's loop: add what to wait for, then act on what is ready,
  // reporting output and exits to `sink`.
  virtual void prepare(PollSet& set) = 0;
  virtual void handle(const PollSet& set, LaunchSink& sink) = 0;

  // Sends `signal` to every rank still running and to everything they started.
  virtual void signalAll(int signal) = 0;
  virtual bool anyRunning() const = 0;
  virtual bool anyOutputOpen() const = 0;

  // Called once every rank has exited: ends whatever the ranks left behind (a background
  // child holding their output pipe, say), so no process of the job outlives it.
  virtual void finish() = 0;
  // Gives up on output still open after finish() (a process that escaped the job).
  virtual void closeOutput(LaunchSink& sink) = 0;
};

}  // namespace zmpi::runtime
