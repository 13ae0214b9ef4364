#pragma once
// How ranks are started and watched, behind one small interface so that the job monitor
// does not care where they run: LocalLauncher forks them on this machine, RemoteLauncher
// asks the zmpid agents of other hosts, CompositeLauncher combines the two.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/common/exit_status.h"
#include "runtime/common/output_forwarder.h"
#include "runtime/common/poll_set.h"
#include "runtime/common/rank_group.h"

namespace zmpi::runtime {

// Everything needed to start one rank, already resolved on the launching side.
struct RankLaunch {
  int rank = 0;
  std::string host;
  // Local ranks: the resolved path to run (see findExecutable). Remote ranks: the program
  // as the user typed it, resolved by the agent on its own host.
  std::string executable;
  std::vector<std::string> argv;  // argv[0] as the user typed the program
  // Local ranks: the whole environment. Remote ranks: only the variables to set over the
  // agent's own environment (-x, ZMPI_*, the bootstrap contract).
  std::vector<std::string> environment;
  std::string workingDirectory;           // empty: the launcher's
  bool workingDirectoryRequired = false;  // given by --wdir: a remote host without it fails the launch
  bool receivesStdin = false;
  bool remote = false;  // started through the zmpid agent of `host`
};

// What a launcher reports to the job monitor, always from the monitor's thread: output
// and exits (RankEvents), and the loss of a host whose ranks' fate is then unknown.
class LaunchSink : public RankEvents {
 public:
  // Contact with the agent of `host` is lost; `ranks` ran there and count as dead from now
  // on (the agent ends them itself when it stops hearing from zmpirun). `why` is a whole
  // sentence naming the agent's address.
  virtual void onHostLost(const std::string& host, const std::vector<int>& ranks, const std::string& why) = 0;
  // False while the output already taken waits for zmpirun's stdout/stderr to take it
  // (a paused pager, a full pipe): take no more from the ranks (leave local pipes unread,
  // grant agents no output credit) until it is true again. Exits and events still count.
  virtual bool acceptingOutput() const { return true; }
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

  // One turn of the monitor's loop: add what to wait for (output sources only while
  // `sink` accepts output), then act on what is ready, reporting output and exits to `sink`.
  virtual void prepare(PollSet& set, const LaunchSink& sink) = 0;
  virtual void handle(const PollSet& set, LaunchSink& sink) = 0;
  // When handle() must run next even if nothing becomes ready (a heartbeat deadline).
  virtual std::optional<std::chrono::steady_clock::time_point> nextDeadline() const { return std::nullopt; }

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
