#pragma once
// A job with ranks both on this machine and on other hosts: local ranks go to a
// LocalLauncher, the others to a RemoteLauncher, and the job monitor sees one launcher.
// The remote ranks are started first: an agent that cannot be reached fails the job
// before any local rank has started.
#include <memory>

#include "runtime/zmpirun/launcher.h"

namespace zmpi::runtime {

class CompositeLauncher : public Launcher {
 public:
  CompositeLauncher(std::unique_ptr<Launcher> local, std::unique_ptr<Launcher> remote)
      : local_(std::move(local)), remote_(std::move(remote)) {}

  void start(const std::vector<RankLaunch>& ranks) override;
  void prepare(PollSet& set, const LaunchSink& sink) override;
  void handle(const PollSet& set, LaunchSink& sink) override;
  std::optional<std::chrono::steady_clock::time_point> nextDeadline() const override;
  void signalAll(int signal) override;
  bool anyRunning() const override { return local_->anyRunning() || remote_->anyRunning(); }
  bool anyOutputOpen() const override { return local_->anyOutputOpen() || remote_->anyOutputOpen(); }
  void finish() override;
  void closeOutput(LaunchSink& sink) override;

 private:
  std::unique_ptr<Launcher> local_;
  std::unique_ptr<Launcher> remote_;
};

}  // namespace zmpi::runtime
