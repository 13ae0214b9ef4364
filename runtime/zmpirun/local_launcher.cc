#include "runtime/zmpirun/local_launcher.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>

#include "runtime/common/orphans.h"
#include "runtime/common/signals.h"
#include "runtime/common/spawn.h"
#include "transport/log.h"

namespace zmpi::runtime {
namespace {
constexpr Stream kStreams[2] = {Stream::Stdout, Stream::Stderr};
}

LocalLauncher::LocalLauncher(int stdinSource)
    : stdinSource_(stdinSource), childExits_(openSignalFd({SIGCHLD})), devNull_(openDevNull(O_RDONLY)) {
  becomeSubreaper();
}

LocalLauncher::~LocalLauncher() {
  // Normally everything was reaped by now; on an exception path make sure nothing lives on.
  if (anyRunning()) signalAll(SIGKILL);
  for (auto& process : processes_) {
    if (!process.exited || (process.pid == processGroup_ && !leaderReaped_)) ::waitpid(process.pid, nullptr, 0);
  }
}

void LocalLauncher::start(const std::vector<RankLaunch>& ranks) {
  auto logger = log::get("runtime");
  for (const RankLaunch& launch : ranks) {
    std::array<Pipe, 2> output{makePipe(), makePipe()};
    Pipe input;
    if (launch.receivesStdin) input = makePipe();
    SpawnRequest request;
    request.path = launch.executable;
    request.argv = launch.argv;
    request.environment = launch.environment;
    request.workingDirectory = launch.workingDirectory;
    request.stdinFd = launch.receivesStdin ? input.read.get() : devNull_.get();
    request.stdoutFd = output[0].write.get();
    request.stderrFd = output[1].write.get();
    request.processGroup = processGroup_;
    pid_t pid;
    try {
      pid = spawnProcess(request);
    } catch (const SpawnError& error) {
      throw LaunchError(launch.rank, launch.host, error.what());
    }
    if (processGroup_ == 0) {
      processGroup_ = pid;
      leaderReaped_ = false;
    }
    RankProcess process;
    process.rank = launch.rank;
    process.pid = pid;
    process.output[0] = std::move(output[0].read);
    process.output[1] = std::move(output[1].read);
    processes_.push_back(std::move(process));
    if (launch.receivesStdin) {
      stdin_ = StdinForwarder(stdinSource_, std::move(input.write));
      stdinRank_ = launch.rank;
    }
    logger->debug("started rank {} as pid {} in process group {}", launch.rank, pid, processGroup_);
  }
}

void LocalLauncher::prepare(PollSet& set) {
  childExitsIndex_ = set.addFd(childExits_.get(), ZMQ_POLLIN);
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      process.pollIndex[which] =
          process.output[which] ? set.addFd(process.output[which].get(), ZMQ_POLLIN) : kNotPolled;
    }
  }
  stdin_.prepare(set);
}

void LocalLauncher::handle(const PollSet& set, LaunchSink& sink) {
  // Output first: whatever a rank wrote before it died is forwarded before its death is.
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      if (process.pollIndex[which] != kNotPolled && set.readable(process.pollIndex[which])) {
        readOutput(process, which, sink);
      }
    }
  }
  stdin_.handle(set);
  if (childExitsIndex_ != kNotPolled && set.readable(childExitsIndex_)) reapExited(sink);
}

void LocalLauncher::readOutput(RankProcess& process, int which, LaunchSink& sink) {
  char buffer[64 * 1024];
  ssize_t got;
  do {
    got = ::read(process.output[which].get(), buffer, sizeof buffer);
  } while (got < 0 && errno == EINTR);
  if (got > 0) {
    sink.onOutput(process.rank, kStreams[which], std::string_view(buffer, static_cast<size_t>(got)));
    return;
  }
  if (got < 0 && errno == EAGAIN) return;
  process.output[which].reset();
  sink.onOutputClosed(process.rank, kStreams[which]);
}

void LocalLauncher::reapExited(LaunchSink& sink) {
  while (readSignal(childExits_.get()) != 0) {
  }  // SIGCHLDs coalesce: after draining, check every rank
  for (auto& process : processes_) {
    if (process.exited) continue;
    siginfo_t info{};
    const bool leader = process.pid == processGroup_;
    const int flags = WEXITED | WNOHANG | (leader ? WNOWAIT : 0);
    if (::waitid(P_PID, static_cast<id_t>(process.pid), &info, flags) != 0 || info.si_pid != process.pid) continue;
    process.exited = true;
    if (process.rank == stdinRank_) stdin_.stop();  // nobody else wants the rest of the input
    sink.onExit(process.rank, process.pid, exitStatusFrom(info));
  }
}

void LocalLauncher::signalAll(int signal) {
  // After finish() the leader is reaped and its group id may belong to someone else.
  if (!leaderReaped_) {
    ::killpg(processGroup_, signal);
    if (signal == SIGTERM) ::killpg(processGroup_, SIGCONT);  // a stopped rank must see it now
  }
  // A rank that moved itself to another group (setsid) is still ours to end.
  for (const auto& process : processes_) {
    if (!process.exited) ::kill(process.pid, signal);
  }
}

bool LocalLauncher::anyRunning() const {
  for (const auto& process : processes_) {
    if (!process.exited) return true;
  }
  return false;
}

bool LocalLauncher::anyOutputOpen() const {
  for (const auto& process : processes_) {
    if (process.output[0] || process.output[1]) return true;
  }
  return false;
}

void LocalLauncher::finish() {
  stdin_.stop();
  if (processGroup_ > 0) ::killpg(processGroup_, SIGKILL);  // leftovers the ranks started
  if (!leaderReaped_) {
    ::waitpid(processGroup_, nullptr, 0);  // a zombie already: returns at once
    leaderReaped_ = true;
  }
  // Every rank is reaped: any child still ours is an orphan that escaped the group.
  if (int ended = endAdoptedOrphans(); ended > 0) {
    log::get("runtime")->debug("ended {} process(es) the ranks left behind outside their group", ended);
  }
}

void LocalLauncher::closeOutput(LaunchSink& sink) {
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      if (!process.output[which]) continue;
      process.output[which].reset();
      sink.onOutputClosed(process.rank, kStreams[which]);
    }
  }
}

}  // namespace zmpi::runtime
