#pragma once
// Starts ranks on this machine as children of zmpirun, all in one process group of their
// own (so one killpg reaches them and whatever they start, and a Ctrl-C at the terminal
// reaches zmpirun alone, which then ends them in order). Each rank's stdout and stderr are
// pipes read by the poll loop; zmpirun's stdin goes to one rank, the others get /dev/null.
#include <map>
#include <memory>
#include <vector>

#include "runtime/common/stdin_forwarder.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/launcher.h"

namespace zmpi::runtime {

class LocalLauncher : public Launcher {
 public:
  // `stdinSource`: the descriptor to forward to the rank that receives stdin (normally 0).
  explicit LocalLauncher(int stdinSource);
  ~LocalLauncher() override;

  void start(const std::vector<RankLaunch>& ranks) override;
  void prepare(PollSet& set) override;
  void handle(const PollSet& set, LaunchSink& sink) override;
  void signalAll(int signal) override;
  bool anyRunning() const override;
  bool anyOutputOpen() const override;
  void finish() override;
  void closeOutput(LaunchSink& sink) override;

 private:
  struct RankProcess {
    int rank = 0;
    pid_t pid = 0;
    bool exited = false;
    UniqueFd output[2];  // stdout, stderr read ends
    size_t pollIndex[2] = {kNotPolled, kNotPolled};
  };
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);

  void reapExited(LaunchSink& sink);
  void readOutput(RankProcess& process, int which, LaunchSink& sink);

  int stdinSource_;
  UniqueFd childExits_;  // signalfd for SIGCHLD
  size_t childExitsIndex_ = kNotPolled;
  UniqueFd devNull_;
  std::vector<RankProcess> processes_;
  pid_t processGroup_ = 0;
  // The group leader (the first rank) is left unreaped until finish(): while its zombie
  // exists the group id cannot be reused, so killpg can never hit an unrelated process.
  bool leaderReaped_ = true;
  StdinForwarder stdin_;
  int stdinRank_ = -1;
};

}  // namespace zmpi::runtime
