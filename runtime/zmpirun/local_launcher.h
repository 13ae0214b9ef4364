#pragma once
// Starts ranks on this machine as children of zmpirun, all in one process group of their
// own (so one killpg reaches them and whatever they start, and a Ctrl-C at the terminal
// reaches zmpirun alone, which then ends them in order). Each rank's stdout and stderr are
// pipes read by the poll loop; zmpirun's stdin goes to one rank, the others get /dev/null.
#include <sys/types.h>

#include "runtime/common/rank_group.h"
#include "runtime/common/stdin_forwarder.h"
#include "runtime/common/unique_fd.h"
#include "runtime/zmpirun/launcher.h"

namespace zmpi::runtime {

class LocalLauncher : public Launcher {
 public:
  // `stdinSource`: the descriptor to forward to the rank that receives stdin (normally 0).
  // `spared`: a child of zmpirun that is not the job's (the srun of its agents), left alone
  // when finish() ends whatever the ranks left behind.
  explicit LocalLauncher(int stdinSource, pid_t spared = 0);

  void start(const std::vector<RankLaunch>& ranks) override;
  void prepare(PollSet& set, const LaunchSink& sink) override;
  void handle(const PollSet& set, LaunchSink& sink) override;
  void signalAll(int signal) override { group_.signalAll(signal); }
  bool anyRunning() const override { return group_.anyRunning(); }
  bool anyOutputOpen() const override { return group_.anyOutputOpen(); }
  void finish() override;
  void closeOutput(LaunchSink& sink) override { group_.closeOutput(sink); }

 private:
  int stdinSource_;
  pid_t spared_;
  UniqueFd childExits_;  // signalfd for SIGCHLD
  size_t childExitsIndex_ = kNotPolled;
  RankGroup group_;
  StdinForwarder stdin_;
  int stdinRank_ = -1;
  static constexpr size_t kNotPolled = static_cast<size_t>(-1);
};

}  // namespace zmpi::runtime
