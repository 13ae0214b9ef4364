#include "runtime/common/rank_group.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>

#include "runtime/common/spawn.h"

namespace zmpi::runtime {
namespace {
constexpr Stream kStreams[2] = {Stream::Stdout, Stream::Stderr};
}

RankGroup::RankGroup() : devNull_(openDevNull(O_RDONLY)) {}

RankGroup::~RankGroup() {
  if (anyRunning()) signalAll(SIGKILL);
  for (pid_t pid : unreaped()) ::waitpid(pid, nullptr, 0);
}

pid_t RankGroup::spawn(const RankSpawn& spawn) {
  std::array<Pipe, 2> output{makePipe(), makePipe()};
  SpawnRequest request;
  request.path = spawn.executable;
  request.argv = spawn.argv;
  request.environment = spawn.environment;
  request.workingDirectory = spawn.workingDirectory;
  request.stdinFd = spawn.stdinFd >= 0 ? spawn.stdinFd : devNull_.get();
  request.stdoutFd = output[0].write.get();
  request.stderrFd = output[1].write.get();
  request.processGroup = processGroup_;
  const pid_t pid = spawnProcess(request);
  if (processGroup_ == 0) {
    processGroup_ = pid;
    leaderReaped_ = false;
  }
  RankProcess process;
  process.rank = spawn.rank;
  process.pid = pid;
  process.output[0] = std::move(output[0].read);
  process.output[1] = std::move(output[1].read);
  processes_.push_back(std::move(process));
  return pid;
}

void RankGroup::prepare(PollSet& set) {
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      process.pollIndex[which] =
          process.output[which] ? set.addFd(process.output[which].get(), ZMQ_POLLIN) : kNotPolled;
    }
  }
}

void RankGroup::handleOutput(const PollSet& set, RankEvents& events) {
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      const size_t index = std::exchange(process.pollIndex[which], kNotPolled);
      if (index != kNotPolled && set.readable(index)) readOutput(process, which, events);
    }
  }
}

void RankGroup::readOutput(RankProcess& process, int which, RankEvents& events) {
  char buffer[kReadBytes];
  ssize_t got;
  do {
    got = ::read(process.output[which].get(), buffer, sizeof buffer);
  } while (got < 0 && errno == EINTR);
  if (got > 0) {
    events.onOutput(process.rank, kStreams[which], std::string_view(buffer, static_cast<size_t>(got)));
    return;
  }
  if (got < 0 && errno == EAGAIN) return;
  process.output[which].reset();
  events.onOutputClosed(process.rank, kStreams[which]);
}

void RankGroup::reapExited(RankEvents& events) {
  for (auto& process : processes_) {
    if (process.exited) continue;
    siginfo_t info{};
    const bool leader = process.pid == processGroup_;
    const int flags = WEXITED | WNOHANG | (leader ? WNOWAIT : 0);
    if (::waitid(P_PID, static_cast<id_t>(process.pid), &info, flags) != 0 || info.si_pid != process.pid) continue;
    process.exited = true;
    events.onExit(process.rank, process.pid, exitStatusFrom(info));
  }
}

void RankGroup::signalAll(int signal) {
  // After finish() the leader is reaped and its group id may belong to someone else.
  if (!leaderReaped_) {
    ::killpg(processGroup_, signal);
    if (signal == SIGTERM) ::killpg(processGroup_, SIGCONT);
  }
  for (const auto& process : processes_) {
    if (!process.exited) ::kill(process.pid, signal);
  }
}

bool RankGroup::anyRunning() const {
  for (const auto& process : processes_) {
    if (!process.exited) return true;
  }
  return false;
}

bool RankGroup::anyOutputOpen() const {
  for (const auto& process : processes_) {
    if (process.output[0] || process.output[1]) return true;
  }
  return false;
}

bool RankGroup::hasExited(int rank) const {
  for (const auto& process : processes_) {
    if (process.rank == rank) return process.exited;
  }
  return false;
}

std::vector<std::pair<int, pid_t>> RankGroup::ranks() const {
  std::vector<std::pair<int, pid_t>> result;
  for (const auto& process : processes_) result.emplace_back(process.rank, process.pid);
  return result;
}

std::vector<pid_t> RankGroup::unreaped() const {
  std::vector<pid_t> pids;
  for (const auto& process : processes_) {
    if (!process.exited || (process.pid == processGroup_ && !leaderReaped_)) pids.push_back(process.pid);
  }
  return pids;
}

void RankGroup::finish() {
  if (processGroup_ > 0 && !leaderReaped_) {
    ::killpg(processGroup_, SIGKILL);      // leftovers the ranks started
    ::waitpid(processGroup_, nullptr, 0);  // a zombie already: returns at once
    leaderReaped_ = true;
  }
}

void RankGroup::closeOutput(RankEvents& events) {
  for (auto& process : processes_) {
    for (int which = 0; which < 2; ++which) {
      if (!process.output[which]) continue;
      process.output[which].reset();
      events.onOutputClosed(process.rank, kStreams[which]);
    }
  }
}

}  // namespace zmpi::runtime
