#pragma once
// The ranks of one job on this machine, as their starter sees them: started in one
// process group of their own (one killpg reaches them and whatever they start), with
// their stdout/stderr on pipes that a poll loop reads, and reaped by pid so that two
// groups in one process (zmpid runs several jobs) never take each other's exits.
//
// zmpirun's LocalLauncher and every job of a zmpid agent are built on this. The owner
// holds the SIGCHLD signalfd (there can be only one per process) and calls reapExited()
// when it fires.
#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "runtime/common/exit_status.h"
#include "runtime/common/output_forwarder.h"
#include "runtime/common/poll_set.h"
#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

// What a group reports, always from its owner's thread.
class RankEvents {
 public:
  virtual ~RankEvents() = default;
  virtual void onOutput(int rank, Stream stream, std::string_view bytes) = 0;
  virtual void onOutputClosed(int rank, Stream stream) = 0;
  virtual void onExit(int rank, pid_t pid, const ExitStatus& status) = 0;
};

struct RankSpawn {
  int rank = 0;
  std::string executable;                // resolved path (findExecutable)
  std::vector<std::string> argv;         // argv[0] included
  std::vector<std::string> environment;  // the whole environment, "NAME=value"
  std::string workingDirectory;          // empty: the starter's
  int stdinFd = -1;                      // -1: /dev/null
};

class RankGroup {
 public:
  RankGroup();
  // Kills (SIGKILL) and reaps whatever is still running: an exception path must not
  // leave a rank behind.
  ~RankGroup();
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;

  // Starts one rank; the first founds the process group. Throws SpawnError.
  pid_t spawn(const RankSpawn& spawn);

  // Adds every open output pipe to `set`; handleOutput() reads the ready ones, one read
  // each, so a chatty rank cannot starve the others or the loop.
  void prepare(PollSet& set);
  void handleOutput(const PollSet& set, RankEvents& events);
  // Reaps ranks that exited (call after SIGCHLD; they coalesce, so every rank is checked).
  void reapExited(RankEvents& events);

  // Sends `signal` to the group and to every rank still running (one may have left the
  // group with setsid). SIGTERM is followed by SIGCONT, so a stopped rank sees it now.
  void signalAll(int signal);
  bool anyRunning() const;
  bool anyOutputOpen() const;
  bool hasExited(int rank) const;
  size_t size() const { return processes_.size(); }
  // Every rank that was started, in order, with its pid.
  std::vector<std::pair<int, pid_t>> ranks() const;
  // Pids this group still has to reap (it alone may reap them).
  std::vector<pid_t> unreaped() const;
  pid_t processGroup() const { return processGroup_; }

  // Called once every rank has exited: SIGKILL to what the ranks left in the group, then
  // the leader is reaped (its zombie kept the group id from being reused until now).
  void finish();
  // Closes output still open (held by a process that escaped the group), reporting it.
  void closeOutput(RankEvents& events);

  static constexpr size_t kReadBytes = 64 * 1024;

 private:
  struct RankProcess {
    int rank = 0;
    pid_t pid = 0;
    bool exited = false;
    UniqueFd output[2];  // stdout, stderr read ends
    size_t pollIndex[2] = {kNotPolled, kNotPolled};
  };
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);

  void readOutput(RankProcess& process, int which, RankEvents& events);

  UniqueFd devNull_;
  std::vector<RankProcess> processes_;
  pid_t processGroup_ = 0;
  // The group leader (the first rank) is left unreaped until finish(): while its zombie
  // exists the group id cannot be reused, so killpg can never hit an unrelated process.
  bool leaderReaped_ = true;
};

}  // namespace zmpi::runtime
