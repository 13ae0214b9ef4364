#include "runtime/zmpirun/composite_launcher.h"

namespace zmpi::runtime {

void CompositeLauncher::start(const std::vector<RankLaunch>& ranks) {
  std::vector<RankLaunch> local;
  std::vector<RankLaunch> remote;
  for (const RankLaunch& rank : ranks) (rank.remote ? remote : local).push_back(rank);
  if (!remote.empty()) remote_->start(remote);
  if (!local.empty()) local_->start(local);
}

void CompositeLauncher::prepare(PollSet& set, const LaunchSink& sink) {
  local_->prepare(set, sink);
  remote_->prepare(set, sink);
}

void CompositeLauncher::handle(const PollSet& set, LaunchSink& sink) {
  local_->handle(set, sink);
  remote_->handle(set, sink);
}

std::optional<std::chrono::steady_clock::time_point> CompositeLauncher::nextDeadline() const {
  auto a = local_->nextDeadline();
  auto b = remote_->nextDeadline();
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

void CompositeLauncher::signalAll(int signal) {
  local_->signalAll(signal);
  remote_->signalAll(signal);
}

void CompositeLauncher::finish() {
  local_->finish();
  remote_->finish();
}

void CompositeLauncher::closeOutput(LaunchSink& sink) {
  local_->closeOutput(sink);
  remote_->closeOutput(sink);
}

}  // namespace zmpi::runtime
