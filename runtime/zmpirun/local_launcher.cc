#include "runtime/zmpirun/local_launcher.h"

#include <csignal>

#include "runtime/common/orphans.h"
#include "runtime/common/signals.h"
#include "runtime/common/spawn.h"
#include "transport/log.h"

namespace zmpi::runtime {

LocalLauncher::LocalLauncher(int stdinSource, pid_t spared)
    : stdinSource_(stdinSource), spared_(spared), childExits_(openSignalFd({SIGCHLD})) {
  becomeSubreaper();
}

void LocalLauncher::start(const std::vector<RankLaunch>& ranks) {
  auto logger = log::get("runtime");
  for (const RankLaunch& launch : ranks) {
    Pipe input;
    if (launch.receivesStdin) input = makePipe();
    RankSpawn spawn{launch.rank,        launch.executable,       launch.argv,
                    launch.environment, launch.workingDirectory, input.read.get()};
    pid_t pid;
    try {
      pid = group_.spawn(spawn);
    } catch (const SpawnError& error) {
      throw LaunchError(launch.rank, launch.host, error.what());
    }
    if (launch.receivesStdin) {
      stdin_ = StdinForwarder(stdinSource_, std::move(input.write));
      stdinRank_ = launch.rank;
    }
    logger->debug("started rank {} as pid {} in process group {}", launch.rank, pid, group_.processGroup());
  }
}

void LocalLauncher::prepare(PollSet& set, const LaunchSink& sink) {
  childExitsIndex_ = set.addFd(childExits_.get(), ZMQ_POLLIN);
  // Pipes left unread fill up and the ranks wait in write() until zmpirun's stdout takes
  // what it holds; their exits are still seen.
  if (sink.acceptingOutput()) group_.prepare(set);
  stdin_.prepare(set);
}

void LocalLauncher::handle(const PollSet& set, LaunchSink& sink) {
  // Output first: whatever a rank wrote before it died is forwarded before its death is.
  group_.handleOutput(set, sink);
  stdin_.handle(set);
  if (childExitsIndex_ != kNotPolled && set.readable(childExitsIndex_)) {
    while (readSignal(childExits_.get()) != 0) {
    }  // SIGCHLDs coalesce: after draining, the group checks every rank
    group_.reapExited(sink);
    // Nobody else wants the rest of the input once its rank is gone.
    if (stdinRank_ >= 0 && group_.hasExited(stdinRank_)) stdin_.stop();
  }
}

void LocalLauncher::finish() {
  stdin_.stop();
  group_.finish();
  // Every rank is reaped: any child still ours is an orphan that escaped the group.
  if (int ended = endAdoptedOrphans([this](pid_t child) { return child != spared_; }); ended > 0) {
    log::get("runtime")->debug("ended {} process(es) the ranks left behind outside their group", ended);
  }
}

}  // namespace zmpi::runtime
