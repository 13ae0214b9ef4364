#include "runtime/common/spawn.h"

#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "runtime/common/signals.h"
#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {
namespace {

// What a child writes to the parent through the close-on-exec pipe when a step before
// exec fails. Success is the pipe closing (by exec) with nothing written.
struct ChildFailure {
  int step;  // index into kSteps
  int error;
};
constexpr const char* kSteps[] = {"set up the process", "change to the working directory", "execute"};

[[noreturn]] void failInChild(int reportFd, int step) {
  const ChildFailure failure{step, errno};
  ssize_t ignored = ::write(reportFd, &failure, sizeof failure);
  (void)ignored;
  ::_exit(127);
}

// Runs in the child between fork and exec: async-signal-safe calls only, because the
// launcher has other threads (zmq's) whose locks may be held at the moment of fork.
[[noreturn]] void becomeChild(const SpawnRequest& request, pid_t parent, char* const* argv, char* const* envp,
                              int reportFd) {
  restoreSignalsInChild();
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) failInChild(reportFd, 0);
  // The launcher may have died before prctl took effect; then nobody would kill us.
  if (::getppid() != parent) ::_exit(1);
  if (::setpgid(0, request.processGroup) != 0) failInChild(reportFd, 0);
  const int targets[] = {request.stdinFd, request.stdoutFd, request.stderrFd};
  for (int fd = 0; fd < 3; ++fd) {
    if (targets[fd] >= 0 && ::dup2(targets[fd], fd) < 0) failInChild(reportFd, 0);
  }
  // Whatever the launcher inherited (a test harness's descriptors, say) is not the rank's.
  // Best effort: kernels before 5.11 lack the flag, and our own descriptors are O_CLOEXEC.
  ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  if (!request.workingDirectory.empty() && ::chdir(request.workingDirectory.c_str()) != 0) {
    failInChild(reportFd, 1);
  }
  ::execve(request.path.c_str(), argv, envp);
  failInChild(reportFd, 2);
}

std::vector<char*> pointersTo(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const auto& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

bool isExecutableFile(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

pid_t spawnProcess(const SpawnRequest& request) {
  // Everything the child needs is built before fork: it must not allocate afterwards.
  const std::vector<char*> argv = pointersTo(request.argv);
  const std::vector<char*> envp = pointersTo(request.environment);
  Pipe report = makePipe();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw SpawnError(std::string("fork: ") + std::strerror(errno), errno);
  if (pid == 0) becomeChild(request, parent, argv.data(), envp.data(), report.write.get());

  // Set the group from this side too, so it is in place before we might signal it
  // whichever of parent and child runs first. EACCES (the child already exec'd) and
  // ESRCH are fine: the child did it itself.
  ::setpgid(pid, request.processGroup == 0 ? pid : request.processGroup);
  report.write.reset();
  ChildFailure failure{};
  ssize_t got;
  do {
    got = ::read(report.read.get(), &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  if (got != static_cast<ssize_t>(sizeof failure)) return pid;  // closed by exec: success
  int status = 0;
  ::waitpid(pid, &status, 0);  // it _exit()s right after writing the report
  std::string what = "cannot ";
  what.append(kSteps[failure.step]).append(" '");
  what.append(failure.step == 1 ? request.workingDirectory : request.path).append("': ");
  what.append(std::strerror(failure.error));
  throw SpawnError(what, failure.error);
}

std::optional<std::string> findExecutable(const std::string& program, const std::string& workingDirectory,
                                          const std::string& searchPath) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    const bool relative = program.front() != '/';
    const std::string where = relative && !workingDirectory.empty() ? workingDirectory + "/" + program : program;
    if (!isExecutableFile(where)) return std::nullopt;
    return program;  // exec runs after chdir, so a relative path still means the same file
  }
  size_t start = 0;
  for (;;) {
    const size_t end = searchPath.find(':', start);
    // An empty PATH element means the current directory.
    std::filesystem::path candidate(end == start ? std::string(".") : searchPath.substr(start, end - start));
    candidate /= program;
    if (isExecutableFile(candidate)) return candidate.string();
    if (end == std::string::npos) return std::nullopt;
    start = end + 1;
  }
}

}  // namespace zmpi::runtime
